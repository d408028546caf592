export {
  createEmptyDatabase,
  createTestDatabase,
  databaseUrl,
  ensureTemplate,
  testAdminUrl,
} from "./test-database.ts";
export type { TestDatabase } from "./test-database.ts";

export {
  createEmptyDatabase,
  createTestDatabase,
  databaseUrl,
  ensureTemplate,
  testAdminUrl,
} from "./test-database.ts";
export type { TestDatabase } from "./test-database.ts";
export { seedRun, seedWorkspace } from "./seed.ts";
export type { SeededWorkspace, SeedOptions } from "./seed.ts";
export { dbTest } from "./fixtures.ts";

export {
  createEmptyDatabase,
  createTestDatabase,
  databaseUrl,
  ensureTemplate,
  testAdminUrl,
} from "./test-database.ts";
export type { TestDatabase } from "./test-database.ts";
export { seedRun, seedTenant, seedWorkspace } from "./seed.ts";
export type { SeededTenant, SeededWorkspace, SeedOptions } from "./seed.ts";
// Vitest fixtures (`dbTest`) live at "@secondshift/db/testing/vitest": this entry is also
// loaded by processes the tests start (a worker under test), where vitest cannot be imported.

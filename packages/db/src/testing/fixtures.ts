// Vitest fixtures: `dbTest` gives each test file one migrated database (created on first use,
// dropped after the file) as `db` (and as `testDatabase`, for a file that needs its url or
// pool), and a freshly seeded workspace per test as `seed`.
//   import { dbTest as test } from "@secondshift/db/testing/vitest";
//   test("…", async ({ db, seed }) => { … });
import { test as base } from "vitest";
import { seedWorkspace } from "./seed.ts";
import { createTestDatabase } from "./test-database.ts";

export const dbTest = base
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("testDatabase", { scope: "file" }, async ({}, { onCleanup }) => {
    const database = await createTestDatabase();
    onCleanup(() => database.drop());
    return database;
  })
  .extend("db", { scope: "file" }, ({ testDatabase }) => testDatabase.db)
  .extend("seed", async ({ db }) => seedWorkspace(db));

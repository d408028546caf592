// One pool per process: Prisma runs on it, the hot statements are prepared on it, and closing
// the Prisma client closes it.
import { describe, expect } from "vitest";
import { createDatabase } from "./client.ts";
import { preparedQuery } from "./prepared.ts";
import { dbTest as test } from "./testing/fixtures.ts";

describe("createDatabase", () => {
  test("runs Prisma and prepared statements over the same single connection", async ({
    testDatabase,
  }) => {
    const { db, pool, close } = createDatabase(testDatabase.url, { maxConnections: 1 });
    try {
      const statement = { name: "secondshift_test_pick", text: "SELECT $1::int + 1 AS n" };
      const rows = await preparedQuery<{ n: number }>(pool, statement, [41]);
      expect(rows).toEqual([{ n: 42 }]);
      // Prisma's query lands on the connection that holds the prepared statement: one pool.
      const prepared = await db.$queryRawUnsafe<{ name: string }[]>(
        "SELECT name FROM pg_prepared_statements",
      );
      expect(prepared.map((p) => p.name)).toContain(statement.name);
      expect(pool.totalCount).toBe(1);
    } finally {
      await close();
    }
    expect(pool.ended).toBe(true);
  });

  test("$disconnect ends the pool; close() ends one Prisma never used", async ({
    testDatabase,
  }) => {
    const used = createDatabase(testDatabase.url, { maxConnections: 1 });
    await used.db.workspace.count();
    await used.db.$disconnect();
    expect(used.pool.ended).toBe(true);
    const unused = createDatabase(testDatabase.url, { maxConnections: 1 });
    await preparedQuery(unused.pool, { name: "secondshift_test_one", text: "SELECT 1" }, []);
    await unused.close();
    expect(unused.pool.ended).toBe(true);
  });
});

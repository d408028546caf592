import { readdir } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { LATEST_MIGRATION } from "./latest-migration.ts";
import { defaultMigrationsDir } from "./paths.ts";

describe("LATEST_MIGRATION", () => {
  it("names the newest folder of prisma/migrations (run npm run db:new-migration to update it)", async () => {
    const entries = await readdir(defaultMigrationsDir, { withFileTypes: true });
    const newest = entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
      .at(-1);
    expect(LATEST_MIGRATION).toBe(newest);
  });
});

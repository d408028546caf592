import { cp, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createEmptyDatabase, testAdminUrl } from "../testing/test-database.ts";
import { applyMigrations, diffMigrationsToSchema } from "./migrate.ts";
import { defaultMigrationsDir, defaultSchemaPath } from "./paths.ts";

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function emptyDb() {
  const db = await createEmptyDatabase();
  cleanups.push(() => db.drop());
  return db.url;
}

async function query(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

describe("migrations", () => {
  it("apply to an empty database, recorded in _prisma_migrations, and re-apply as a no-op", async () => {
    const url = await emptyDb();
    const applied = await applyMigrations({ databaseUrl: url });
    expect(applied.length).toBeGreaterThan(0);
    const recorded = await query(
      url,
      'SELECT migration_name, finished_at, rolled_back_at, checksum FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(recorded.map((r) => r.migration_name)).toEqual(applied);
    for (const row of recorded) {
      expect(row.finished_at).not.toBeNull();
      expect(row.rolled_back_at).toBeNull();
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(await applyMigrations({ databaseUrl: url })).toEqual([]);
    const tables = await query(
      url,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(["Workspace", "Run", "RunToken", "AuditEvent", "EncryptionKeyCheck"]),
    );
  });

  it("apply only the missing ones to a partly migrated database", async () => {
    const url = await emptyDb();
    const dir = await mkdtemp(join(tmpdir(), "ss-migrations-"));
    await cp(defaultMigrationsDir, dir, { recursive: true });
    expect(
      (await applyMigrations({ databaseUrl: url, migrationsDir: dir })).length,
    ).toBeGreaterThan(0);
    await cp(dir, `${dir}-2`, { recursive: true });
    const later = join(`${dir}-2`, "99990101000000_add_note");
    await cp(join(dir, "migration_lock.toml"), join(`${dir}-2`, "migration_lock.toml"));
    await import("node:fs/promises").then((fs) => fs.mkdir(later));
    await writeFile(
      join(later, "migration.sql"),
      'ALTER TABLE "Workspace" ADD COLUMN "note" TEXT;',
    );
    expect(await applyMigrations({ databaseUrl: url, migrationsDir: `${dir}-2` })).toEqual([
      "99990101000000_add_note",
    ]);
    expect(await applyMigrations({ databaseUrl: url, migrationsDir: `${dir}-2` })).toEqual([]);
  });

  it("the committed schema and migrations agree (fails CI on drift)", async () => {
    const sql = await diffMigrationsToSchema({ databaseUrl: await emptyDb() });
    expect(
      sql,
      `prisma/schema.prisma and prisma/migrations disagree; run npm run db:new-migration. Missing:\n${sql}`,
    ).toBe("");
  });

  it("drift is detected when the schema changes without a migration", async () => {
    const dir = await mkdtemp(join(tmpdir(), "ss-schema-"));
    const schema = (await readFile(defaultSchemaPath, "utf8")).replace(
      "model Workspace {",
      "model Workspace {\n  driftColumn String?",
    );
    await writeFile(join(dir, "schema.prisma"), schema);
    const sql = await diffMigrationsToSchema({
      databaseUrl: await emptyDb(),
      schemaPath: join(dir, "schema.prisma"),
    });
    expect(sql).toContain('ADD COLUMN     "driftColumn" TEXT');
  });

  it("leaves no shadow database behind", async () => {
    const rows = await query(
      testAdminUrl(),
      "SELECT datname FROM pg_database WHERE datname LIKE 'secondshift_shadow_%' OR datname LIKE 'prisma_migrate_shadow%'",
    );
    expect(rows).toEqual([]);
  });
});

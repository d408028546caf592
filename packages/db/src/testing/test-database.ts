// Each test file gets its own database, copied from a template that holds the migrated schema.
// The template's name carries a hash of the migrations, so a changed migration builds a new
// one; an advisory lock makes concurrent test processes build it once.
import { createHash, randomBytes } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import pg from "pg";
import { createDatabase, type Db, type Pool } from "../client.ts";
import { applyMigrations } from "../migrate/migrate.ts";
import { defaultMigrationsDir } from "../migrate/paths.ts";

export interface TestDatabase {
  name: string;
  url: string;
  db: Db;
  /** The pool `db` runs on (for prepared statements). */
  pool: Pool;
  drop(): Promise<void>;
}

/** The admin URL of the throwaway cluster the test command starts. */
export function testAdminUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      "TEST_DATABASE_URL is not set: run the tests through `npm run test:all` (scripts/test-all.sh), which starts PostgreSQL.",
    );
  }
  return url;
}

export function databaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function migrationsHash(dir: string): Promise<string> {
  const hash = createHash("sha256");
  for (const name of (await readdir(dir)).sort()) {
    if (name.endsWith(".toml")) continue;
    hash.update(name).update(await readFile(join(dir, name, "migration.sql")));
  }
  return hash.digest("hex").slice(0, 12);
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function ensureTemplate(
  adminUrl: string,
  migrationsDir = defaultMigrationsDir,
): Promise<string> {
  const template = `secondshift_tpl_${await migrationsHash(migrationsDir)}`;
  await withAdmin(adminUrl, async (admin) => {
    await admin.query("SELECT pg_advisory_lock(4242001)");
    try {
      const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
      if (exists.rowCount) return;
      const building = `${template}_building`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
      await admin.query(`CREATE DATABASE "${building}"`);
      await applyMigrations({ databaseUrl: databaseUrl(adminUrl, building), migrationsDir });
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
      await admin.query(`ALTER DATABASE "${template}" IS_TEMPLATE true`);
    } finally {
      await admin.query("SELECT pg_advisory_unlock(4242001)");
    }
  });
  return template;
}

/** An empty database with no schema at all (for migration tests). */
export async function createEmptyDatabase(
  adminUrl = testAdminUrl(),
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `secondshift_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE "${name}"`));
  return {
    url: databaseUrl(adminUrl, name),
    drop: () =>
      withAdmin(adminUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ).then(() => undefined),
  };
}

/** A fresh, fully migrated database for one test file. Call `drop()` in afterAll. */
export async function createTestDatabase(
  options: { maxConnections?: number } = {},
): Promise<TestDatabase> {
  const adminUrl = testAdminUrl();
  const template = await ensureTemplate(adminUrl);
  const name = `secondshift_test_${randomBytes(6).toString("hex")}`;
  await withAdmin(adminUrl, (admin) =>
    admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`),
  );
  const url = databaseUrl(adminUrl, name);
  const { db, pool, close } = createDatabase(url, {
    maxConnections: options.maxConnections ?? 5,
  });
  // DROP ... WITH (FORCE) ends the pool's backends, possibly before its sockets have closed.
  pool.on("error", () => undefined);
  return {
    name,
    url,
    db,
    pool,
    async drop() {
      await close();
      await withAdmin(adminUrl, (admin) =>
        admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      );
    },
  };
}

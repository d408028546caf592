// Applying migrations and comparing the schema with them, the way `prisma migrate deploy` and
// `prisma migrate diff` do, recorded in `_prisma_migrations` the standard way.
import { readFile } from "node:fs/promises";
import { openSchemaEngine } from "./schema-engine.ts";
import { readMigrationsDir } from "./migrations-dir.ts";
import { defaultMigrationsDir, defaultSchemaPath } from "./paths.ts";

const noFilters = { externalTables: [], externalEnums: [] };

export interface MigrateOptions {
  databaseUrl: string;
  migrationsDir?: string;
  schemaPath?: string;
}

async function schemaFiles(schemaPath: string) {
  return [{ path: schemaPath, content: await readFile(schemaPath, "utf8") }];
}

/** Applies every migration not yet applied. Idempotent: a second run applies nothing. */
export async function applyMigrations(options: MigrateOptions): Promise<string[]> {
  const schemaPath = options.schemaPath ?? defaultSchemaPath;
  const handle = await openSchemaEngine(options.databaseUrl, await schemaFiles(schemaPath));
  try {
    const result = await handle.engine.applyMigrations({
      migrationsList: await readMigrationsDir(options.migrationsDir ?? defaultMigrationsDir),
      filters: noFilters,
    });
    return result.appliedMigrationNames;
  } finally {
    await handle.close();
  }
}

/**
 * The SQL that would bring a database built from the migrations to the schema; empty when they
 * agree. Uses a temporary shadow database on the same server.
 */
export async function diffMigrationsToSchema(options: MigrateOptions): Promise<string> {
  const schemaPath = options.schemaPath ?? defaultSchemaPath;
  const files = await schemaFiles(schemaPath);
  const handle = await openSchemaEngine(options.databaseUrl, files);
  try {
    const migrations = await readMigrationsDir(options.migrationsDir ?? defaultMigrationsDir);
    const from =
      migrations.migrationDirectories.length === 0
        ? ({ tag: "empty" } as const)
        : ({ tag: "migrations", ...migrations } as const);
    const result = await handle.engine.diff({
      from,
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: null,
      filters: noFilters,
    });
    const sql = result.stdout ?? "";
    return /^\s*(--[^\n]*\n?\s*)*$/.test(sql) ? "" : sql;
  } finally {
    await handle.close();
  }
}

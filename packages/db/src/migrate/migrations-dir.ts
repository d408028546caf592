// Reads a standard `prisma/migrations` folder into the shape the schema engine takes.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { MigrationList } from "@prisma/schema-engine-wasm/schema_engine_bg";

export async function readMigrationsDir(dir: string): Promise<MigrationList> {
  const entries = existsSync(dir) ? await readdir(dir, { withFileTypes: true }) : [];
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const lockPath = join(dir, "migration_lock.toml");
  return {
    baseDir: dir,
    lockfile: {
      path: "migration_lock.toml",
      content: existsSync(lockPath) ? await readFile(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories: await Promise.all(
      names.map(async (name) => {
        const file = join(dir, name, "migration.sql");
        const content = existsSync(file)
          ? ({ tag: "ok", value: await readFile(file, "utf8") } as const)
          : ({ tag: "error", value: `${file} is missing` } as const);
        return { path: name, migrationFile: { path: "migration.sql", content } };
      }),
    ),
  };
}

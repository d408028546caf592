// The service image's migration command (compose's one-shot `migrate` service). Bundled by
// scripts/bundle.mjs into dist/migrate.mjs; reads the migrations shipped beside it in
// /app/prisma, not the repository layout that `npm run db:migrate` assumes.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations } from "@secondshift/db";

const appRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error("DATABASE_URL is missing: set it in .env (see .env.example).");
  process.exit(2);
}
const applied = await applyMigrations({
  databaseUrl,
  migrationsDir: resolve(appRoot, "prisma/migrations"),
  schemaPath: resolve(appRoot, "prisma/schema.prisma"),
});
console.log(
  applied.length === 0
    ? "Database is up to date; no migration applied."
    : `Applied ${applied.length} migration(s): ${applied.join(", ")}`,
);

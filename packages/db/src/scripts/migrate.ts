// npm run db:migrate — applies prisma/migrations to DATABASE_URL (idempotent).
import { applyMigrations } from "../migrate/migrate.ts";
import { requireDatabaseUrl } from "./script-env.ts";

const applied = await applyMigrations({ databaseUrl: requireDatabaseUrl() });
console.log(
  applied.length === 0
    ? "Database is up to date; no migration applied."
    : `Applied ${applied.length} migration(s): ${applied.join(", ")}`,
);

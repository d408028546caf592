// npm run db:check-drift — fails when prisma/schema.prisma and prisma/migrations disagree.
import { diffMigrationsToSchema } from "../migrate/migrate.ts";
import { requireDatabaseUrl } from "./script-env.ts";

const sql = await diffMigrationsToSchema({ databaseUrl: requireDatabaseUrl() });
if (sql) {
  console.error(
    "prisma/schema.prisma and prisma/migrations disagree. Run `npm run db:new-migration -- <name>`. Missing SQL:\n" +
      sql,
  );
  process.exit(1);
}
console.log("Schema and migrations agree.");

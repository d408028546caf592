// The database and the keyring, proven to match before anything starts (P07), plus a pg pool on
// the same database for the broker's per-call queries.
import type { WorkerEnv } from "@secondshift/config";
import type { Logger } from "@secondshift/logging";
import { openVerifiedDatabase } from "@secondshift/service";
import pg from "pg";

export async function openWorkerDatabase(env: WorkerEnv, logger: Logger) {
  const { db, keyring } = await openVerifiedDatabase(env);
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 });
  // An idle connection dropped by the server (restart, failover) is replaced on next use;
  // without a listener node-postgres would take the whole process down with it.
  pool.on("error", (err) => logger.warn({ err }, "an idle database connection closed"));
  return {
    db,
    keyring,
    pool,
    close: async () => {
      await Promise.all([db.$disconnect(), pool.end()]);
    },
  };
}

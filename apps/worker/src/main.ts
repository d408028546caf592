// Worker entry: validates configuration, proves the encryption key matches the stored data,
// then starts the platform (schedules, run queue, sync, delivery, recovery).
import { createKeyring } from "@secondshift/crypto";
import { createDb, ensureKeyCheck } from "@secondshift/db";
import { createLogger, SecretMasker } from "@secondshift/logging";
import pg from "pg";
import { createWorkerPlatform } from "./platform.ts";
import { settingsFromEnv } from "./settings.ts";

function fatal(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const masker = new SecretMasker();
  const logger = createLogger({ name: "worker", level: env.LOG_LEVEL, masker });
  const db = createDb(env.DATABASE_URL);
  const keyring = createKeyring(
    env.SECONDSHIFT_ENCRYPTION_KEY,
    env.SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS,
  );
  await ensureKeyCheck(db, keyring).catch(fatal);
  const pool = new pg.Pool({ connectionString: env.DATABASE_URL, max: 10 });
  const platform = createWorkerPlatform(settingsFromEnv(env, keyring), {
    db,
    logger,
    masker,
    pool,
  });
  await platform.start();
  const stop = () => {
    logger.info("shutting down");
    void platform
      .stop()
      .then(() => Promise.all([db.$disconnect(), pool.end()]))
      .then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

void main();

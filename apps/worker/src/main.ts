// Worker entry: validates configuration and proves the encryption key matches the stored data
// before any processor starts, then starts the platform (schedules, run queue, sync, delivery,
// recovery).
import { createLogger, SecretMasker } from "@secondshift/logging";
import { fatal, onShutdown } from "@secondshift/service";
import { openWorkerDatabase } from "./database.ts";
import { createWorkerPlatform } from "./platform.ts";
import { settingsFromEnv } from "./settings.ts";

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const masker = new SecretMasker();
  const logger = createLogger({ name: "worker", level: env.LOG_LEVEL, masker });
  const database = await openWorkerDatabase(env, logger);
  const { db, keyring, pool } = database;
  const platform = createWorkerPlatform(settingsFromEnv(env, keyring), {
    db,
    logger,
    masker,
    pool,
  });
  // Registered before start: start() logs "worker started", and a SIGTERM sent on that line
  // must already find the handler (else Node's default ends the process by the signal).
  onShutdown(logger, async () => {
    await platform.stop();
    await database.close();
  });
  await platform.start();
}

void main();

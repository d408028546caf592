// Web app entry: validates configuration, proves the encryption key matches the stored data,
// then serves. The owner UI and tRPC API will mount beside the health and webhook routes.
import { createKeyring } from "@secondshift/crypto";
import { createDb, ensureKeyCheck } from "@secondshift/db";
import { createLogger, SecretMasker } from "@secondshift/logging";
import { createSyncQueue } from "@secondshift/scheduler";
import { fatal } from "./fatal.ts";
import { createWebServer } from "./server.ts";

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const logger = createLogger({ name: "web", level: env.LOG_LEVEL, masker: new SecretMasker() });
  const db = createDb(env.DATABASE_URL);
  const keyring = createKeyring(
    env.SECONDSHIFT_ENCRYPTION_KEY,
    env.SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS,
  );
  await ensureKeyCheck(db, keyring).catch(fatal);
  const syncQueue = createSyncQueue({
    connection: { url: env.REDIS_URL, maxRetriesPerRequest: null },
  });
  const server = createWebServer({ db, keyring, syncQueue, logger });
  server.listen(env.PORT, () => logger.info({ port: env.PORT }, "web listening"));
  const stop = () => {
    logger.info("shutting down");
    server.close(
      () => void Promise.all([syncQueue.close(), db.$disconnect()]).then(() => process.exit(0)),
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

void main();

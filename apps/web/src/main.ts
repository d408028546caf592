// Web app entry: validates configuration, proves the encryption key matches the stored data,
// then serves. The owner UI and tRPC API will mount beside the health and webhook routes.
import { createLogger, SecretMasker } from "@secondshift/logging";
import { createSyncQueue } from "@secondshift/scheduler";
import { fatal, onShutdown, openVerifiedDatabase } from "@secondshift/service";
import { createWebServer } from "./server.ts";

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const logger = createLogger({ name: "web", level: env.LOG_LEVEL, masker: new SecretMasker() });
  const { db, keyring } = await openVerifiedDatabase(env);
  const syncQueue = createSyncQueue({
    connection: { url: env.REDIS_URL, maxRetriesPerRequest: null },
  });
  const server = createWebServer({ db, keyring, syncQueue, logger });
  server.listen(env.PORT, () => logger.info({ port: env.PORT }, "web listening"));
  onShutdown(logger, async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.all([syncQueue.close(), db.$disconnect()]);
  });
}

void main();

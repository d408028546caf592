// Web app entry: validates configuration, proves the encryption key matches the stored data,
// then serves the owner API (tRPC under /api/trpc/) beside the health and webhook routes, and
// the owner web app's pages (the built Next.js app, which calls the API in-process).
import { createAccountsDeps, createLoginRateLimiter } from "@secondshift/accounts";
import {
  createApiHandler,
  createServerApi,
  startRunEventListener,
  type ApiOptions,
} from "@secondshift/api";
import { createLogger, SecretMasker } from "@secondshift/logging";
import {
  createRunQueue,
  createScheduleQueue,
  createSyncQueue,
  createWorkspaceServices,
} from "@secondshift/scheduler";
import { fatal, onShutdown, openVerifiedDatabase } from "@secondshift/service";
import { Redis } from "ioredis";
import { prepareWebApp } from "./next-app.ts";
import { registerServerApi } from "./server-api.ts";
import { createWebServer } from "./server.ts";
import { prepareSetupToken } from "./setup-token.ts";

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const logger = createLogger({ name: "web", level: env.LOG_LEVEL, masker: new SecretMasker() });
  const { db, keyring } = await openVerifiedDatabase(env);
  const queueConnection = { connection: { url: env.REDIS_URL, maxRetriesPerRequest: null } };
  const syncQueue = createSyncQueue(queueConnection);
  // The owner API's run now, pause / resume and sync now move work onto these queues.
  const runQueue = createRunQueue(queueConnection);
  const scheduleQueue = createScheduleQueue(queueConnection);
  const services = createWorkspaceServices({ db, runQueue, scheduleQueue, syncQueue, logger });
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1 });
  const accounts = createAccountsDeps({ db, limiter: createLoginRateLimiter(redis) });
  const setupToken = await prepareSetupToken(db, {
    required: env.SECONDSHIFT_SETUP_TOKEN_REQUIRED,
    publicUrl: env.SECONDSHIFT_PUBLIC_URL,
    logger,
  });
  // One LISTEN connection for every live run transcript this process serves.
  const runEvents = await startRunEventListener({ connectionString: env.DATABASE_URL, logger });
  const apiOptions: ApiOptions = {
    accounts,
    publicUrl: env.SECONDSHIFT_PUBLIC_URL,
    setupToken,
    logger,
    runEvents,
    services,
    keyring,
  };
  const api = createApiHandler(apiOptions);
  // Pages call the same procedures in-process, with the same deps (src/server-api.ts).
  registerServerApi(createServerApi(apiOptions));
  const pages = await prepareWebApp().catch(fatal);
  const https = new URL(env.SECONDSHIFT_PUBLIC_URL).protocol === "https:";
  const server = createWebServer({ db, keyring, syncQueue, logger, api, pages, https });
  server.listen(env.PORT, () => logger.info({ port: env.PORT }, "web listening"));
  onShutdown(logger, async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Live transcripts (SSE) never end on their own: cut them after a short grace; their
    // clients reconnect, to another process if need be, and resume from Last-Event-ID.
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
    await closed;
    await Promise.all([
      syncQueue.close(),
      runQueue.close(),
      scheduleQueue.close(),
      redis.quit(),
      runEvents.close(),
      db.$disconnect(),
    ]);
  });
}

void main();

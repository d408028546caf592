// Web app entry: validates configuration, proves the encryption key matches the stored data
// (P07: with a wrong key it serves only /healthz and a not-ready /readyz naming the key id the
// data needs), then serves the owner API (tRPC under /api/trpc/) beside the health, readiness
// and webhook routes, the owner web app's pages (the built Next.js app, which calls the API
// in-process), and its process metrics on METRICS_PORT.
import {
  createAccountsDeps,
  createAuthCallLimiter,
  createLoginRateLimiter,
} from "@secondshift/accounts";
import {
  clientAddressResolver,
  createApiHandler,
  createServerApi,
  startRunEventListener,
  type ApiOptions,
} from "@secondshift/api";
import { createLogger, SecretMasker } from "@secondshift/logging";
import {
  createOutputQueue,
  createRunQueue,
  createScheduleQueue,
  createSyncQueue,
  createWorkspaceServices,
} from "@secondshift/scheduler";
import {
  databaseChecks,
  fatal,
  keyCheck,
  onShutdown,
  openVerifiedDatabase,
  outboundPolicy,
  readyzRoute,
  redisCheck,
  createMetricsRegistry,
  serveMetrics,
} from "@secondshift/service";
import { Redis } from "ioredis";
import { buildOwnerOutbound } from "./outbound.ts";
import { prepareWebApp } from "./next-app.ts";
import { registerServerApi } from "./server-api.ts";
import { createWebServer } from "./server.ts";
import { prepareSetupToken } from "./setup-token.ts";

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const masker = new SecretMasker();
  const logger = createLogger({ name: "web", level: env.LOG_LEVEL, masker });
  const { db, pool, keyring } = await openVerifiedDatabase(env, { healthPort: env.PORT });
  const queueConnection = { connection: { url: env.REDIS_URL, maxRetriesPerRequest: null } };
  const syncQueue = createSyncQueue(queueConnection);
  // The owner API's run now, pause / resume and sync now move work onto these queues.
  const runQueue = createRunQueue(queueConnection);
  const scheduleQueue = createScheduleQueue(queueConnection);
  // An owner's approved output goes onto the outputs queue; a worker applies it (issue #24).
  const outputQueue = createOutputQueue(queueConnection);
  const services = createWorkspaceServices({
    db,
    runQueue,
    scheduleQueue,
    syncQueue,
    outputQueue,
    logger,
  });
  const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 1 });
  const accounts = createAccountsDeps({
    db,
    limiter: createLoginRateLimiter(redis),
    authCalls: createAuthCallLimiter(redis),
  });
  const setupToken = await prepareSetupToken(db, {
    required: env.SECONDSHIFT_SETUP_TOKEN_REQUIRED,
    publicUrl: env.SECONDSHIFT_PUBLIC_URL,
    logger,
  });
  // One LISTEN connection for every live run transcript this process serves.
  const runEvents = await startRunEventListener({ connectionString: env.DATABASE_URL, logger });
  // Tool discovery and the provider check call the owner's services through netguard.
  const outbound = buildOwnerOutbound({ db, keyring, logger, masker, policy: outboundPolicy(env) });
  const apiOptions: ApiOptions = {
    accounts,
    clientAddress: clientAddressResolver(env.SECONDSHIFT_TRUSTED_PROXIES),
    publicUrl: env.SECONDSHIFT_PUBLIC_URL,
    setupToken,
    logger,
    runEvents,
    services,
    keyring,
    workspaceCreation: env.SECONDSHIFT_WORKSPACE_CREATION,
    discovery: outbound.discovery,
    outbound: outbound.outbound,
    mcpOAuth: outbound.mcpOAuth,
    destinations: outbound.destinations,
    maxTokenBudget: env.RUN_MAX_TOKEN_BUDGET,
  };
  const api = createApiHandler(apiOptions);
  // Pages call the same procedures in-process, with the same deps (src/server-api.ts).
  registerServerApi(createServerApi(apiOptions));
  const pages = await prepareWebApp().catch(fatal);
  const readyz = readyzRoute([...databaseChecks(pool), redisCheck(redis), keyCheck(keyring)]);
  const https = new URL(env.SECONDSHIFT_PUBLIC_URL).protocol === "https:";
  const server = createWebServer({
    db,
    keyring,
    syncQueue,
    runQueue,
    logger,
    api,
    pages,
    https,
    readyz,
    maxEventAgeSeconds: env.SECONDSHIFT_MAX_EVENT_AGE_SECONDS,
  });
  server.listen(env.PORT, () => logger.info({ port: env.PORT }, "web listening"));
  // Process metrics only: the run and queue figures come from the worker's endpoint.
  const metricsServer = await serveMetrics(env.METRICS_PORT, createMetricsRegistry("web")).catch(
    fatal,
  );
  onShutdown(logger, async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Live transcripts (SSE) never end on their own: cut them after a short grace; their
    // clients reconnect, to another process if need be, and resume from Last-Event-ID.
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
    await Promise.all([closed, metricsServer?.close()]);
    await Promise.all([
      syncQueue.close(),
      runQueue.close(),
      scheduleQueue.close(),
      outputQueue.close(),
      redis.quit(),
      runEvents.close(),
      outbound.close(),
      db.$disconnect(),
    ]);
  });
}

void main();

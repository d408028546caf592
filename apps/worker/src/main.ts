// Worker entry: validates configuration and proves the encryption key matches the stored data
// before any processor starts, empties its work folder, then starts the platform (recovery,
// schedules, run queue, sync, delivery) and its /healthz and /readyz, which open the run
// queue only while ready (C13).
import { createLogger, SecretMasker } from "@secondshift/logging";
import {
  createMetricsRegistry,
  emptyWorkFolder,
  fatal,
  onShutdown,
  openVerifiedDatabase,
  serveMetrics,
} from "@secondshift/service";
import { createWorkerPlatform } from "./platform.ts";
import { createWorkerHealth } from "./readiness.ts";
import { settingsFromEnv } from "./settings.ts";

async function main() {
  const { env } = await import("./env.ts").catch(fatal);
  const masker = new SecretMasker();
  const logger = createLogger({ name: "worker", level: env.LOG_LEVEL, masker });
  const { db, pool, keyring } = await openVerifiedDatabase(env, { healthPort: env.PORT });
  // An idle connection dropped by the server (restart, failover) is replaced on next use;
  // without a listener node-postgres would take the whole process down with it.
  pool.on("error", (err) => logger.warn({ err }, "an idle database connection closed"));
  // Reads DOCKER_CERT_PATH's files: a missing or wrong one stops the start, named.
  const settings = (() => {
    try {
      return settingsFromEnv(env, keyring);
    } catch (error) {
      return fatal(error);
    }
  })();
  // Before anything else uses it, and before lost-run recovery: what a killed worker left in its
  // work folder (exported repositories, git homes, sync checkouts) goes now.
  const removed = await emptyWorkFolder(settings.workDir).catch(fatal);
  logger.info({ workDir: settings.workDir, removed }, "work folder emptied");
  const metrics = createMetricsRegistry("worker");
  const platform = createWorkerPlatform(settings, { db, logger, masker, pool, metrics });
  const metricsServer = await serveMetrics(env.METRICS_PORT, metrics).catch(fatal);
  const health = createWorkerHealth({ platform, settings, pool, keyring, logger });
  // Registered before start: start() logs "worker started", and a SIGTERM sent on that line
  // must already find the handler (else Node's default ends the process by the signal).
  onShutdown(logger, async () => {
    await Promise.all([health.close(), metricsServer?.close()]);
    await platform.stop();
    await db.$disconnect(); // ends the pool too
  });
  await platform.start({ claimRuns: false });
  await health.serve(env.PORT);
}

void main();

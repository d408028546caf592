// Wires the worker's packages together: outbound guard, connectors, broker, sandboxes, the run
// executor, schedules, the run queue, lost-run recovery, the reaper, repository sync and
// webhook delivery. The entry point (main.ts) and the end-to-end suite both build it.
import { randomUUID } from "node:crypto";
import { freezePlan } from "@secondshift/access";
import { createBroker } from "@secondshift/broker";
import {
  closeConnectors,
  createConnectors,
  disposeRun,
  outboundFromNetguard,
} from "@secondshift/connectors";
import type { Db, Pool } from "@secondshift/db";
import type { Logger, SecretMasker } from "@secondshift/logging";
import { createOutboundClient } from "@secondshift/netguard";
import { syncRepository } from "@secondshift/repo-sync";
import { executeRun, revokeRunTokens, type RunExecutorDeps } from "@secondshift/runs";
import { createSandboxManager } from "@secondshift/sandbox";
import {
  createRunQueue,
  createRunQueueWorker,
  createScheduleQueue,
  createScheduleWorker,
  createSyncQueue,
  createSyncWorker,
  recoverLostRuns,
  requeueQueuedRuns,
  syncSchedules,
} from "@secondshift/scheduler";
import { createDeliveryProcessor, enqueueReports } from "@secondshift/webhooks";
import Docker from "dockerode";
import type { WorkerSettings } from "./settings.ts";
import { createSourceProvider } from "./source.ts";

export interface WorkerServices {
  db: Db;
  logger: Logger;
  masker: SecretMasker;
  docker?: Docker;
  /** The pool `db` runs on (`createDatabase`): the broker's per-call statements are prepared on it. */
  pool: Pool;
}

export type WorkerPlatform = ReturnType<typeof createWorkerPlatform>;

export function createWorkerPlatform(settings: WorkerSettings, services: WorkerServices) {
  const { db, logger, masker } = services;
  const workerId = `worker-${randomUUID().slice(0, 8)}`;
  const docker = services.docker ?? new Docker();
  const client = createOutboundClient(settings.outbound);
  const outbound = outboundFromNetguard(client);
  const connectors = createConnectors({
    outbound,
    logger,
    clientInfo: { name: "secondshift", version: "0.1.0" },
  });
  const broker = createBroker({
    db,
    pool: services.pool,
    keyring: settings.keyring,
    connectors,
    logger,
    masker,
    limits: {
      timeoutMs: 60_000,
      maxResultBytes: 256 * 1024,
      maxStringLength: 64 * 1024,
      maxArrayItems: 1000,
    },
  });
  const sandboxes = createSandboxManager({
    docker,
    ...settings.sandbox,
    production: settings.production,
    logger,
  });
  const gitPolicy = { outbound: settings.outbound, allowFileRemotes: settings.allowFileRemotes };
  const connection = { url: settings.redis.url, maxRetriesPerRequest: null };
  const queueOptions = {
    connection,
    ...(settings.redis.prefix ? { prefix: settings.redis.prefix } : {}),
  };
  const scheduleQueue = createScheduleQueue(queueOptions);
  const runQueue = createRunQueue(queueOptions);
  const syncQueue = createSyncQueue(queueOptions);
  // Heartbeats must come several times per heartbeatTimeoutMs, or recovery (on this worker or
  // another) declares a healthy run lost between two beats.
  const heartbeatMs = Math.max(250, Math.min(5_000, Math.floor(settings.heartbeatTimeoutMs / 4)));

  const executorDeps: RunExecutorDeps & { masker: SecretMasker } = {
    db,
    logger,
    masker,
    workerId,
    gatewayUrl: settings.gatewayUrl,
    sandboxes,
    source: createSourceProvider({ db, keyring: settings.keyring, policy: gitPolicy, masker }),
    broker: { call: (run, tool, args) => broker.call(run, tool, args) },
    freezePlan,
    limits: { heartbeatMs },
    enqueueReports: async (input) => {
      await enqueueReports(db, input);
    },
    // At the run's end: the broker drops the run's cached plan, the connectors its sessions.
    releaseRun: async (runId) => {
      broker.release(runId);
      await disposeRun(connectors, runId);
    },
  };

  const delivery = createDeliveryProcessor(
    db,
    {
      keyring: settings.keyring,
      client,
      masker,
      logger,
      runLink: (run) => `${settings.publicUrl.replace(/\/$/, "")}/runs/${run.id}`,
    },
    { intervalMs: settings.intervals.deliveryMs },
  );
  // A sandbox whose run this database does not know belongs to another installation on the same
  // Docker engine (or to a deleted run): it is left to its deadline label, never reaped early.
  const reaper = sandboxes.createReaper(async (runId) => {
    const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
    return run === null || run.status === "RUNNING";
  });
  const syncDeps = {
    keyring: settings.keyring,
    policy: gitPolicy,
    limits: settings.repoConfig,
    logger,
    masker,
  };

  async function syncAllRepositories(): Promise<void> {
    for (const repo of await db.repository.findMany({ select: { id: true, workspaceId: true } })) {
      await syncRepository(db, syncDeps, {
        workspaceId: repo.workspaceId,
        repositoryId: repo.id,
      }).catch((err: unknown) =>
        logger.warn({ err, repositoryId: repo.id }, "repository sync failed"),
      );
    }
    await syncSchedules(db, scheduleQueue, { logger });
  }

  /** One repository, then its workspace's schedules (a changed request may stop a schedule). */
  async function syncOne(target: { workspaceId: string; repositoryId: string }): Promise<void> {
    const result = await syncRepository(db, syncDeps, target);
    if (result.status === "failed")
      logger.warn(
        { repositoryId: target.repositoryId, reason: result.reason },
        "repository sync failed",
      );
    await syncSchedules(db, scheduleQueue, { workspaceId: target.workspaceId, logger });
  }

  async function recover(): Promise<void> {
    await recoverLostRuns(db, {
      heartbeatTimeoutMs: settings.heartbeatTimeoutMs,
      logger,
      onLost: async (run) => {
        await revokeRunTokens(db, run);
        await reaper.reapOnce();
        await enqueueReports(db, { workspaceId: run.workspaceId, runId: run.id }).catch(
          () => undefined,
        );
      },
    });
    await requeueQueuedRuns(db, runQueue, { olderThanMs: 60_000 });
  }

  const timers: NodeJS.Timeout[] = [];
  let workers: Array<{ close(): Promise<void> }> = [];

  return {
    workerId,
    db,
    broker,
    connectors,
    sandboxes,
    scheduleQueue,
    runQueue,
    syncQueue,
    syncOne,
    executorDeps,
    delivery,
    reaper,
    syncDeps,
    syncAllRepositories,
    recover,
    executeRun: (runId: string) => executeRun(executorDeps, runId),
    async start(options: { repoSync?: boolean } = {}) {
      await recover();
      await syncSchedules(db, scheduleQueue, { logger });
      workers = [
        createScheduleWorker({ ...queueOptions, db, runQueue, logger }),
        createSyncWorker({ ...queueOptions, logger, sync: syncOne }),
        createRunQueueWorker({
          ...queueOptions,
          db,
          logger,
          workerId,
          concurrency: settings.concurrency,
          heartbeatIntervalMs: heartbeatMs,
          execute: async (run) => {
            await executeRun(executorDeps, run.id);
          },
        }),
      ];
      delivery.start();
      reaper.start(settings.intervals.reaperMs);
      const every = (ms: number, task: () => Promise<unknown>) =>
        timers.push(
          setInterval(
            () =>
              void task().catch((err: unknown) => logger.error({ err }, "periodic task failed")),
            ms,
          ),
        );
      every(settings.intervals.recoverMs, recover);
      every(settings.intervals.scheduleSyncMs, () => syncSchedules(db, scheduleQueue, { logger }));
      if (options.repoSync !== false) every(settings.intervals.repoSyncMs, syncAllRepositories);
      logger.info({ workerId }, "worker started");
    },
    async stop() {
      for (const timer of timers.splice(0)) clearInterval(timer);
      await delivery.stop();
      reaper.stop();
      await Promise.all(workers.map((w) => w.close()));
      await Promise.all([scheduleQueue.close(), runQueue.close(), syncQueue.close()]);
      await closeConnectors(connectors);
      await client.close();
    },
  };
}

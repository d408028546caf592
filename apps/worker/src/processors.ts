// Starting and stopping what runs in the background: the queue workers (schedules, sync, runs,
// outputs), webhook delivery, the reaper and the periodic tasks (recovery, schedules, repository
// sync, held outputs' expiry); stop() is the orderly shutdown.
import type { Logger } from "@secondshift/logging";
import type { Reaper } from "@secondshift/sandbox";
import {
  createRunQueueWorker,
  createScheduleWorker,
  createSyncWorker,
  syncSchedules,
} from "@secondshift/scheduler";
import type { Db } from "@secondshift/db";
import type { WorkerOutputs } from "./outputs.ts";
import type { WorkerQueues } from "./queues.ts";
import type { WorkerSettings } from "./settings.ts";

export interface ProcessorParts {
  db: Db;
  logger: Logger;
  workerId: string;
  queues: WorkerQueues;
  delivery: { start(): void; stop(): Promise<void> };
  reaper: Reaper;
  heartbeatMs: number;
  executeRun: (runId: string) => Promise<unknown>;
  /** Before a queued run is claimed: ends an event run whose actor may not start it (E03). */
  screenRun?: (run: { id: string; workspaceId: string }) => Promise<void>;
  syncOne: (target: { workspaceId: string; repositoryId: string }) => Promise<void>;
  syncAllRepositories: () => Promise<void>;
  /** Stops the thread `.secondshift.yaml` files are read in. */
  closeConfigReader: () => Promise<void>;
  recover: () => Promise<void>;
  /** The outputs queue's worker and the held outputs' expiry sweep. */
  outputs: Pick<WorkerOutputs, "startOutputWorker" | "expireHeldOutputs">;
  /** Closes what the processors used last (broker, connectors, outbound client). */
  closeTools: () => Promise<void>;
}

export function buildProcessors(settings: WorkerSettings, parts: ProcessorParts) {
  const { db, logger, queues, workerId } = parts;
  const timers: NodeJS.Timeout[] = [];
  let workers: Array<{ close(): Promise<void> }> = [];
  let runWorker: ReturnType<typeof createRunQueueWorker> | undefined;

  function startQueueWorkers(claimRuns: boolean): void {
    const { queueOptions, runQueue } = queues;
    runWorker = createRunQueueWorker({
      ...queueOptions,
      db,
      logger,
      workerId,
      concurrency: settings.concurrency,
      heartbeatIntervalMs: parts.heartbeatMs,
      queueLockMs: settings.queueLockMs,
      autorun: claimRuns,
      execute: async (run) => {
        await parts.executeRun(run.id);
      },
      ...(parts.screenRun ? { screen: parts.screenRun } : {}),
    });
    workers = [
      createScheduleWorker({ ...queueOptions, db, runQueue, logger }),
      createSyncWorker({ ...queueOptions, logger, sync: parts.syncOne }),
      parts.outputs.startOutputWorker(),
      runWorker,
    ];
  }

  /**
   * Whether this worker takes runs off the run queue (C13: not while it is not ready). Pausing
   * lets the runs already started finish; the queue keeps the others for a ready worker.
   */
  async function setClaiming(claim: boolean): Promise<void> {
    if (!runWorker) return;
    if (claim) await runWorker.resume();
    else await runWorker.pause(true);
  }

  function every(ms: number, task: () => Promise<unknown>): void {
    const tick = () =>
      void task().catch((err: unknown) => logger.error({ err }, "periodic task failed"));
    timers.push(setInterval(tick, ms));
  }

  /** `claimRuns: false` starts with the run queue paused until `setClaiming(true)`. */
  async function start(options: { repoSync?: boolean; claimRuns?: boolean } = {}): Promise<void> {
    await parts.recover();
    await syncSchedules(db, queues.scheduleQueue, { logger });
    startQueueWorkers(options.claimRuns !== false);
    parts.delivery.start();
    parts.reaper.start(settings.intervals.reaperMs);
    every(settings.intervals.recoverMs, parts.recover);
    every(settings.intervals.scheduleSyncMs, () =>
      syncSchedules(db, queues.scheduleQueue, { logger }),
    );
    every(settings.outputs.expirySweepMs, parts.outputs.expireHeldOutputs);
    if (options.repoSync !== false) every(settings.intervals.repoSyncMs, parts.syncAllRepositories);
    logger.info({ workerId }, "worker started");
  }

  async function stop(): Promise<void> {
    for (const timer of timers.splice(0)) clearInterval(timer);
    await parts.delivery.stop();
    parts.reaper.stop();
    await Promise.all(workers.map((w) => w.close()));
    await parts.closeTools();
    await parts.closeConfigReader();
    await queues.close();
  }

  return { start, stop, setClaiming };
}

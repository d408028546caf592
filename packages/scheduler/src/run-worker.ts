// The BullMQ worker on the run queue. Global concurrency is the worker's `concurrency`; the
// per-workspace limit is the database claim (claim.ts), so it holds across worker processes.
// A run over its workspace's limit stays QUEUED (visible as waiting) and its queue job is
// delayed and retried; it is never started twice.
import { randomUUID } from "node:crypto";
import { DelayedError, Queue, Worker } from "bullmq";
import type { Db, RunModel } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import { claimRun, failRun, heartbeat } from "@secondshift/run-lifecycle";
import { RUN_QUEUE, withPrefix, type QueueConnection, type RunJobData } from "./queues.ts";

export interface ExecuteContext {
  workerId: string;
  /** Aborted when the heartbeat finds the run is no longer this worker's RUNNING run. */
  signal: AbortSignal;
}

export interface RunQueueWorkerOptions extends QueueConnection {
  db: Db;
  /** Runs executed at once by this process (the global limit per worker). */
  concurrency: number;
  /**
   * Executes a claimed (RUNNING) run and records its final status. If it returns or throws
   * while the run is still RUNNING, the run is marked FAILED here.
   */
  execute: (run: RunModel, context: ExecuteContext) => Promise<void>;
  /**
   * Called for a queued run before it is claimed (after queueing, before start): may end it
   * without starting it (an event run whose actor may not start the job, E03). The claim that
   * follows then finds it not queued.
   */
  screen?: (run: { id: string; workspaceId: string }) => Promise<void>;
  logger: Logger;
  /** Stored on claimed runs; defaults to a random id per worker instance. */
  workerId?: string;
  /** How long a run over its workspace limit waits before trying again (jittered ±50%). */
  limitRetryDelayMs?: number;
  heartbeatIntervalMs?: number;
  /**
   * How long a queue job's lock lives without renewal (BullMQ `lockDuration`; stalled jobs are
   * looked for at the same interval): a dead worker's queue jobs go to another worker after
   * one to two of these. Default 30 s.
   */
  queueLockMs?: number;
  autorun?: boolean;
}

export const EXECUTOR_FAILED_ERROR = "The run stopped because of an internal worker error.";
export const NO_RESULT_ERROR = "The run ended without recording a result.";

export function createRunQueueWorker(options: RunQueueWorkerOptions): Worker<RunJobData, void> {
  const { db, logger, execute } = options;
  const workerId = options.workerId ?? `worker-${randomUUID()}`;
  const limitRetryDelayMs = options.limitRetryDelayMs ?? 2_000;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 10_000;

  // Used only to wake a waiting run when a slot frees up (see wakeNextWaiting).
  const queue = new Queue<RunJobData>(RUN_QUEUE, withPrefix(options));
  const worker = new Worker<RunJobData, void>(
    RUN_QUEUE,
    async (job, token) => {
      const { runId, workspaceId } = job.data;
      await options.screen?.({ id: runId, workspaceId });
      const claim = await claimRun(db, { id: runId, workspaceId }, workerId);
      if (claim === "not_queued") {
        // Already started elsewhere, finished, or cancelled while waiting: nothing to do.
        logger.debug({ runId }, "run not queued any more; queue job dropped");
        return;
      }
      if (claim === "at_limit") {
        // Jitter spreads the retries of many waiting runs so they do not all wake together.
        const delay = Math.round(limitRetryDelayMs * (0.5 + Math.random()));
        await job.moveToDelayed(Date.now() + delay, token);
        throw new DelayedError();
      }
      await executeClaimed(runId, workspaceId);
    },
    {
      ...withPrefix(options),
      concurrency: options.concurrency,
      autorun: options.autorun ?? true,
      ...(options.queueLockMs
        ? { lockDuration: options.queueLockMs, stalledInterval: options.queueLockMs }
        : {}),
    },
  );

  async function executeClaimed(runId: string, workspaceId: string): Promise<void> {
    const controller = new AbortController();
    const timer = setInterval(() => {
      heartbeat(db, { id: runId, workspaceId }, workerId).then(
        (mine) => {
          if (!mine && !controller.signal.aborted)
            controller.abort(new Error("run is no longer running on this worker"));
        },
        (error: unknown) => logger.warn({ err: error, runId }, "run heartbeat failed"),
      );
    }, heartbeatIntervalMs);
    let failure = NO_RESULT_ERROR;
    try {
      const run = await db.run.findFirstOrThrow({ where: { id: runId, workspaceId } });
      logger.info({ runId, workspaceId, jobId: run.jobId, workerId }, "run started");
      await execute(run, { workerId, signal: controller.signal });
    } catch (error) {
      // The executor's message may quote data; the run gets a fixed message, the log the detail.
      logger.error({ err: error, runId }, "run executor failed");
      failure = EXECUTOR_FAILED_ERROR;
    } finally {
      clearInterval(timer);
    }
    if (await failRun(db, { id: runId, workspaceId }, failure, { workerId })) {
      logger.warn({ runId, error: failure }, "run left RUNNING by its executor; marked failed");
    }
    await wakeNextWaiting(workspaceId);
  }

  /**
   * A slot of the workspace just freed up: promote its oldest waiting run now instead of
   * letting it sleep out its retry delay. This keeps throughput at the limit and roughly FIFO;
   * the claim still decides, so a lost race only means another delay.
   */
  async function wakeNextWaiting(workspaceId: string): Promise<void> {
    try {
      const next = await db.run.findFirst({
        where: { workspaceId, status: "QUEUED" },
        orderBy: { queuedAt: "asc" },
        select: { id: true },
      });
      const job = next ? await queue.getJob(next.id) : undefined;
      if (job && (await job.isDelayed())) await job.promote();
    } catch (error) {
      // Racing another worker's promote (or a claim) is harmless: the run just waits its delay.
      logger.debug({ err: error, workspaceId }, "could not wake a waiting run");
    }
  }

  worker.on("closed", () => void queue.close());
  worker.on("error", (error) => logger.error({ err: error }, "run worker error"));
  worker.on("failed", (job, error) =>
    logger.error({ err: error, runId: job?.data.runId }, "run queue job failed"),
  );
  return worker;
}

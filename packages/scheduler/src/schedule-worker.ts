// The BullMQ worker on the schedule queue: turns each job-scheduler fire into `handleFire`.
import { Worker, type Job } from "bullmq";
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import { handleFire, type FireOutcome } from "./fire.ts";
import {
  FIRE_JOB_NAME,
  SCHEDULE_QUEUE,
  withPrefix,
  type FireJobData,
  type QueueConnection,
  type RunQueue,
} from "./queues.ts";

export interface ScheduleWorkerOptions extends QueueConnection {
  db: Db;
  runQueue: RunQueue;
  logger: Logger;
  /** Fires handled in parallel; each is a few short queries. */
  concurrency?: number;
  /** Start consuming immediately (default true). */
  autorun?: boolean;
}

/**
 * The fire's scheduled time. BullMQ puts it in `opts.prevMillis` of every job a scheduler
 * produces, and in the job id (`repeat:<schedulerId>:<millis>`) as a fallback.
 */
export function fireTime(job: Pick<Job, "id" | "opts">): Date {
  const fromOpts = job.opts.prevMillis;
  if (typeof fromOpts === "number" && Number.isFinite(fromOpts) && fromOpts > 0)
    return new Date(fromOpts);
  const fromId = Number(job.id?.split(":").at(-1));
  if (Number.isFinite(fromId) && fromId > 0) return new Date(fromId);
  throw new Error(`schedule job ${job.id ?? "?"} carries no fire time`);
}

export function createScheduleWorker(
  options: ScheduleWorkerOptions,
): Worker<FireJobData, FireOutcome | null> {
  const { db, runQueue, logger } = options;
  const worker = new Worker<FireJobData, FireOutcome | null>(
    SCHEDULE_QUEUE,
    async (job) => {
      if (job.name !== FIRE_JOB_NAME) return null;
      return handleFire(
        db,
        runQueue,
        { workspaceId: job.data.workspaceId, jobId: job.data.jobId, scheduledFor: fireTime(job) },
        logger,
      );
    },
    {
      ...withPrefix(options),
      concurrency: options.concurrency ?? 5,
      autorun: options.autorun ?? true,
    },
  );
  // An EventEmitter "error" without a listener would crash the worker process.
  worker.on("error", (error) => logger.error({ err: error }, "schedule worker error"));
  worker.on("failed", (job, error) =>
    logger.error({ err: error, jobId: job?.data.jobId }, "schedule fire failed"),
  );
  return worker;
}

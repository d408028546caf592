// The two BullMQ queues this package owns and the shape of their jobs. Names are fixed so
// every worker process and the web app agree; `prefix` separates deployments (and test files)
// sharing one Redis.
import { Queue, type ConnectionOptions, type JobsOptions } from "bullmq";

export const SCHEDULE_QUEUE = "secondshift-schedule";
export const RUN_QUEUE = "secondshift-runs";
export const FIRE_JOB_NAME = "fire";
export const RUN_JOB_NAME = "run";

/** Data carried by every fire of a job scheduler (the scheduler's template data). */
export interface FireJobData {
  workspaceId: string;
  jobId: string;
}

/** Data of a run-queue job; the BullMQ job id is the run id, so a run is queued at most once. */
export interface RunJobData {
  runId: string;
  workspaceId: string;
}

export interface QueueConnection {
  connection: ConnectionOptions;
  /** Redis key prefix; defaults to BullMQ's `bull`. */
  prefix?: string;
}

export type ScheduleQueue = Queue<FireJobData>;
export type RunQueue = Queue<RunJobData>;

/** The scheduler id for a SecondShift job: one scheduler per job, so upserts replace it. */
export function schedulerIdForJob(jobId: string): string {
  return `job-${jobId}`;
}

export const SCHEDULER_ID_PREFIX = "job-";

/**
 * Options of the job each fire creates. A fire is retried a few times so a brief database
 * outage does not lose it; the handler is idempotent through Run(jobId, scheduledFor).
 */
export const fireJobOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 1_000 },
  removeOnComplete: { count: 1_000 },
  removeOnFail: { count: 1_000 },
} as const;

/**
 * Retrying a run-queue job never starts a run twice: the processor only starts a run it can
 * move from QUEUED to RUNNING in the database, so attempts only cover a failed claim (e.g.
 * the database was briefly down). A run lost mid-way is failed by `recoverLostRuns`.
 */
export const runJobOptions: JobsOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 1_000 },
  removeOnComplete: { count: 1_000 },
  removeOnFail: { count: 1_000 },
};

export function createScheduleQueue(options: QueueConnection): ScheduleQueue {
  return new Queue<FireJobData>(SCHEDULE_QUEUE, withPrefix(options));
}

export function createRunQueue(options: QueueConnection): RunQueue {
  return new Queue<RunJobData>(RUN_QUEUE, {
    ...withPrefix(options),
    defaultJobOptions: runJobOptions,
  });
}

/** Puts a run on the run queue. Idempotent: the job id is the run id. */
export async function addRunToQueue(runQueue: RunQueue, data: RunJobData): Promise<void> {
  await runQueue.add(RUN_JOB_NAME, data, { ...runJobOptions, jobId: data.runId });
}

export function withPrefix(options: QueueConnection): {
  connection: ConnectionOptions;
  prefix?: string;
} {
  return options.prefix === undefined
    ? { connection: options.connection }
    : { connection: options.connection, prefix: options.prefix };
}

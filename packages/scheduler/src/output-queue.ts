// The outputs queue (issue #24): one BullMQ job per output that is READY (finalize) or APPROVED
// (an owner), applied to GitHub by a worker after its run has ended. The job id is the output's,
// so adding it twice is a no-op; a transient GitHub failure is retried with backoff, and an
// output a crash or exhausted retries left behind is put back by `requeueOutputs`.
import { Queue, Worker, type Job, type JobsOptions } from "bullmq";
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import { APPLICABLE_OUTPUT_STATES, FINAL_STATUSES } from "@secondshift/vocabulary";
import { withPrefix, type QueueConnection } from "./queues.ts";

export const OUTPUT_QUEUE = "secondshift-outputs";
export const OUTPUT_JOB_NAME = "apply";

export interface OutputJobData {
  outputId: string;
  workspaceId: string;
}

export type OutputQueue = Queue<OutputJobData>;

/** Retries cover GitHub being busy or rate-limited (about 5 s, 10 s, … up to ~20 minutes). */
export const outputJobOptions: JobsOptions = {
  attempts: 8,
  backoff: { type: "exponential", delay: 5_000 },
  removeOnComplete: { count: 1_000 },
  removeOnFail: { count: 1_000 },
};

const LIVE_JOB_STATES = new Set([
  "waiting",
  "delayed",
  "active",
  "prioritized",
  "waiting-children",
]);

/** BullMQ job ids must not be bare integers; the prefix also names what the job is. */
export const outputJobId = (outputId: string): string => `output-${outputId}`;

export function createOutputQueue(options: QueueConnection): OutputQueue {
  return new Queue<OutputJobData>(OUTPUT_QUEUE, {
    ...withPrefix(options),
    defaultJobOptions: outputJobOptions,
  });
}

/**
 * Puts an output on the queue. Idempotent while a job for it is live (the job id is the
 * output's); a finished one (an output held again, then approved again) is replaced.
 */
export async function addOutputToQueue(queue: OutputQueue, data: OutputJobData): Promise<void> {
  const existing = await queue.getJob(outputJobId(data.outputId));
  if (existing && !LIVE_JOB_STATES.has(await existing.getState())) await existing.remove();
  await queue.add(
    OUTPUT_JOB_NAME,
    { outputId: data.outputId, workspaceId: data.workspaceId },
    { ...outputJobOptions, jobId: outputJobId(data.outputId) },
  );
}

export interface OutputWorkerOptions extends QueueConnection {
  logger: Logger;
  /** Applies one output (the worker passes @secondshift/outputs' applyOutput). */
  apply: (output: OutputJobData) => Promise<unknown>;
  concurrency?: number;
  /** BullMQ `lockDuration` and `stalledInterval`: how soon a crashed worker's job moves on. */
  queueLockMs?: number;
}

export function createOutputWorker(options: OutputWorkerOptions): Worker<OutputJobData, void> {
  return new Worker<OutputJobData, void>(
    OUTPUT_QUEUE,
    async (job: Job<OutputJobData>) => {
      await options.apply({ outputId: job.data.outputId, workspaceId: job.data.workspaceId });
    },
    {
      ...withPrefix(options),
      concurrency: options.concurrency ?? 2,
      ...(options.queueLockMs
        ? { lockDuration: options.queueLockMs, stalledInterval: options.queueLockMs }
        : {}),
    },
  ).on("failed", (job, err) =>
    options.logger.warn(
      { err, outputId: job?.data.outputId, attempt: job?.attemptsMade },
      "output apply job failed",
    ),
  );
}

/**
 * Re-adds outputs of ended runs still READY, APPROVED or APPLYING (a crash, a lost enqueue, or
 * retries exhausted) that have no live queue job. Safe at any time; returns how many.
 */
export async function requeueOutputs(
  db: Db,
  queue: OutputQueue,
  options: { limit?: number } = {},
): Promise<number> {
  const outputs = await db.runOutput.findMany({
    where: {
      state: { in: [...APPLICABLE_OUTPUT_STATES] },
      run: { status: { in: [...FINAL_STATUSES] } },
    },
    select: { id: true, workspaceId: true },
    orderBy: { proposedAt: "asc" },
    take: options.limit ?? 500,
  });
  let requeued = 0;
  for (const output of outputs) {
    const existing = await queue.getJob(outputJobId(output.id));
    const state = existing ? await existing.getState() : "missing";
    if (LIVE_JOB_STATES.has(state)) continue;
    await addOutputToQueue(queue, { outputId: output.id, workspaceId: output.workspaceId });
    requeued++;
  }
  return requeued;
}

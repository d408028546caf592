// Repository syncs on demand (push webhooks, "sync now"). One deduplication id per repository:
// at most one sync of a repository runs and one waits, and a push that arrives during a sync is
// kept (as the one waiting) instead of dropped, so the newest commit is always synced.
import { Queue, Worker, type Job } from "bullmq";
import type { Logger } from "@secondshift/logging";
import { withPrefix, type QueueConnection } from "./queues.ts";

export const SYNC_QUEUE = "secondshift-sync";

export interface SyncJobData {
  workspaceId: string;
  repositoryId: string;
}

export type SyncQueue = Queue<SyncJobData>;

export function createSyncQueue(options: QueueConnection): SyncQueue {
  return new Queue<SyncJobData>(SYNC_QUEUE, {
    ...withPrefix(options),
    defaultJobOptions: {
      removeOnComplete: 1000,
      removeOnFail: 1000,
      attempts: 3,
      backoff: { type: "exponential", delay: 5_000 },
    },
  });
}

export async function requestSync(queue: SyncQueue, target: SyncJobData): Promise<void> {
  await queue.add("sync", target, {
    deduplication: { id: `repo-${target.repositoryId}`, keepLastIfActive: true },
  });
}

export interface SyncWorkerOptions extends QueueConnection {
  logger: Logger;
  /** Syncs one repository (the worker passes syncRepository + syncSchedules). */
  sync: (target: SyncJobData) => Promise<void>;
  concurrency?: number;
}

export function createSyncWorker(options: SyncWorkerOptions): Worker<SyncJobData, void> {
  return new Worker<SyncJobData, void>(
    SYNC_QUEUE,
    async (job: Job<SyncJobData>) => {
      await options.sync({
        workspaceId: job.data.workspaceId,
        repositoryId: job.data.repositoryId,
      });
    },
    { ...withPrefix(options), concurrency: options.concurrency ?? 2 },
  ).on("failed", (job, err) =>
    options.logger.warn(
      { err, repositoryId: job?.data.repositoryId },
      "repository sync job failed",
    ),
  );
}

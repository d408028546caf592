// Recovery after a worker dies: RUNNING runs whose heartbeat stopped are failed ("worker
// lost") and handed to `onLost` so the caller reaps the container and revokes the token; and
// QUEUED runs missing from the run queue (crash between insert and enqueue, or a queue job
// that failed) are put back.
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import { addRunToQueue, type RunQueue } from "./queues.ts";

export const WORKER_LOST_ERROR = "worker lost";

export interface LostRun {
  id: string;
  workspaceId: string;
  jobId: string;
  workerId: string | null;
}

export interface RecoverLostRunsOptions {
  heartbeatTimeoutMs: number;
  onLost: (run: LostRun) => Promise<void> | void;
  logger?: Logger;
}

/**
 * One conditional UPDATE … RETURNING: when two recoverers race, PostgreSQL re-checks
 * `status = 'RUNNING'` on the row the first one changed, so each lost run is returned (and
 * `onLost` called) exactly once. The cutoff uses the database clock, like `heartbeat`.
 */
export async function recoverLostRuns(db: Db, options: RecoverLostRunsOptions): Promise<LostRun[]> {
  const lost = await db.$queryRaw<LostRun[]>`
    UPDATE "Run" SET status = 'FAILED', error = ${WORKER_LOST_ERROR}, "finishedAt" = now()
    WHERE status = 'RUNNING'
      AND COALESCE("heartbeatAt", "startedAt", "queuedAt")
        < now() - (${options.heartbeatTimeoutMs}::double precision * interval '1 millisecond')
    RETURNING id, "workspaceId", "jobId", "workerId"`;
  for (const run of lost) {
    options.logger?.warn(
      { runId: run.id, workspaceId: run.workspaceId, workerId: run.workerId },
      "run marked failed: worker lost",
    );
    try {
      await options.onLost(run);
    } catch (error) {
      // The run is already FAILED; a failing cleanup must not hide the other lost runs.
      options.logger?.error({ err: error, runId: run.id }, "cleanup of lost run failed");
    }
  }
  return lost;
}

export interface RequeueOptions {
  /** Only runs queued at least this long ago (a fresh run is still being enqueued). */
  olderThanMs: number;
  workspaceId?: string;
}

/** Re-adds QUEUED runs that have no live queue job. Safe to call at any time; returns the count. */
export async function requeueQueuedRuns(
  db: Db,
  runQueue: RunQueue,
  options: RequeueOptions,
): Promise<number> {
  const runs = await db.run.findMany({
    where: {
      ...(options.workspaceId === undefined ? {} : { workspaceId: options.workspaceId }),
      status: "QUEUED",
      queuedAt: { lt: new Date(Date.now() - options.olderThanMs) },
    },
    select: { id: true, workspaceId: true },
  });
  let requeued = 0;
  for (const run of runs) {
    const existing = await runQueue.getJob(run.id);
    const state = existing ? await existing.getState() : "missing";
    if (
      state === "waiting" ||
      state === "delayed" ||
      state === "active" ||
      state === "prioritized" ||
      state === "waiting-children"
    )
      continue;
    // A finished queue job blocks re-adding the same id, so it is removed first.
    if (existing) await existing.remove();
    await addRunToQueue(runQueue, { runId: run.id, workspaceId: run.workspaceId });
    requeued++;
  }
  return requeued;
}

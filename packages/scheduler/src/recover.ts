// Recovery after a worker dies: RUNNING runs whose heartbeat stopped are failed ("worker
// lost") and handed to `onLost` so the caller reaps the container and revokes the token; and
// QUEUED runs missing from the run queue (crash between insert and enqueue, or a queue job
// that failed) are put back.
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import { failLostRuns, type LostRun } from "@secondshift/run-lifecycle";
import { addRunToQueue, type RunQueue } from "./queues.ts";

export { WORKER_LOST_ERROR, type LostRun } from "@secondshift/run-lifecycle";

export interface RecoverLostRunsOptions {
  heartbeatTimeoutMs: number;
  onLost: (run: LostRun) => Promise<void> | void;
  logger?: Logger;
}

/** Fails lost runs (each exactly once, even with recoverers racing) and cleans each up. */
export async function recoverLostRuns(db: Db, options: RecoverLostRunsOptions): Promise<LostRun[]> {
  const lost = await failLostRuns(db, options.heartbeatTimeoutMs);
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

// The database side of the run queue: the atomic QUEUED → RUNNING claim that enforces
// Workspace.maxConcurrentRuns across every worker process, the heartbeat, and the guard that
// keeps a run from staying RUNNING after its executor returned.
import type { Db } from "@secondshift/db";
import { lockWorkspaceRunClaims } from "./locks.ts";

export type ClaimResult = "claimed" | "at_limit" | "not_queued";

export interface ClaimInput {
  runId: string;
  workspaceId: string;
  workerId: string;
}

/**
 * Starts the run only if it is still QUEUED and fewer than the workspace's limit are RUNNING.
 * The count and the update run under the workspace's advisory lock: under READ COMMITTED two
 * concurrent claims would otherwise both see "limit - 1" and both start.
 */
export async function claimRun(db: Db, input: ClaimInput): Promise<ClaimResult> {
  const { runId, workspaceId, workerId } = input;
  return db.$transaction(async (tx) => {
    await lockWorkspaceRunClaims(tx, workspaceId);
    const updated = await tx.$executeRaw`
      UPDATE "Run" SET status = 'RUNNING', "workerId" = ${workerId}, "startedAt" = now(), "heartbeatAt" = now()
      WHERE id = ${runId} AND "workspaceId" = ${workspaceId} AND status = 'QUEUED'
        AND (SELECT count(*) FROM "Run" WHERE "workspaceId" = ${workspaceId} AND status = 'RUNNING')
          < (SELECT "maxConcurrentRuns" FROM "Workspace" WHERE id = ${workspaceId})`;
    if (updated === 1) return "claimed";
    const run = await tx.run.findFirst({
      where: { id: runId, workspaceId },
      select: { status: true },
    });
    return run?.status === "QUEUED" ? "at_limit" : "not_queued";
  });
}

/**
 * Records that `workerId` is still executing the run (database clock, so workers' clocks do
 * not matter). False when the run is no longer this worker's RUNNING run — e.g. it was
 * declared lost or cancelled — and the executor should stop.
 */
export async function heartbeat(db: Db, runId: string, workerId: string): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE "Run" SET "heartbeatAt" = now() WHERE id = ${runId} AND "workerId" = ${workerId} AND status = 'RUNNING'`;
  return updated === 1;
}

/** Fails the run if this worker's executor left it RUNNING; true when it did. */
export async function failIfStillRunning(
  db: Db,
  runId: string,
  workerId: string,
  error: string,
): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE "Run" SET status = 'FAILED', error = ${error}, "finishedAt" = now()
    WHERE id = ${runId} AND "workerId" = ${workerId} AND status = 'RUNNING'`;
  return updated === 1;
}

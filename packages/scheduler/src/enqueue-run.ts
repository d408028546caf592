// "Run now": owners and admins may start an approved job outside its schedule. Viewers (and
// non-members) are refused. Like a fire, it never stacks a second active run on a job.
import type { Db } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { findActiveRun, insertQueuedRun } from "./job-runs.ts";
import { lockJobRuns } from "./locks.ts";
import { addRunToQueue, type RunQueue } from "./queues.ts";

export interface EnqueueRunInput {
  workspaceId: string;
  jobId: string;
  actor: { userId: string };
}

export async function enqueueRun(
  db: Db,
  runQueue: RunQueue,
  input: EnqueueRunInput,
): Promise<{ runId: string }> {
  const { workspaceId, jobId, actor } = input;
  // Checked here, not only in the API layer, so no caller can skip it.
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId: actor.userId } },
    select: { role: true },
  });
  if (!membership || (membership.role !== "OWNER" && membership.role !== "ADMIN")) {
    throw new AppError("FORBIDDEN", "Only workspace owners and admins can start a run.", {
      reason: "ROLE_CANNOT_RUN",
    });
  }

  const runId = await db.$transaction(async (tx) => {
    await lockJobRuns(tx, jobId);
    const job = await tx.job.findFirst({
      where: { id: jobId, workspaceId, removedAt: null },
      select: { status: true, tokenBudget: true },
    });
    if (!job || job.status === "REMOVED") {
      throw new AppError("NOT_FOUND", "This job does not exist in the workspace.", {
        reason: "JOB_NOT_FOUND",
      });
    }
    if (job.status !== "APPROVED") {
      throw new AppError(
        "PRECONDITION_FAILED",
        "This job needs the owner's approval before it can run.",
        { reason: "JOB_NOT_APPROVED" },
      );
    }
    if (await findActiveRun(tx, workspaceId, jobId)) {
      throw new AppError(
        "CONFLICT",
        "A run of this job is already queued or running; wait for it to finish.",
        {
          reason: "RUN_ALREADY_ACTIVE",
        },
      );
    }
    const run = await insertQueuedRun(tx, {
      workspaceId,
      jobId,
      trigger: "MANUAL",
      scheduledFor: null,
      budgetTokens: job.tokenBudget,
    });
    await tx.auditEvent.create({
      data: {
        workspaceId,
        actorType: "USER",
        actorId: actor.userId,
        action: "run.requested",
        targetType: "run",
        targetId: run.id,
        outcome: "queued",
      },
    });
    return run.id;
  });

  await addRunToQueue(runQueue, { runId, workspaceId });
  return { runId };
}

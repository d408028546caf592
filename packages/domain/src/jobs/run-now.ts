// "Run now": owners and admins start an approved job outside its schedule (C02). Like a fire,
// it never stacks a second active run on a job. The run row and its audit row commit together;
// the queue add comes after commit (a crash in between leaves a QUEUED run that the scheduler's
// requeue puts back).
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, requireService, type ActorContext } from "../context.ts";
import { findActiveRun, insertQueuedRun, lockJobRuns } from "@secondshift/run-lifecycle";

export async function runNow(
  ctx: ActorContext,
  input: { jobId: string },
): Promise<{ runId: string }> {
  await requireRole(ctx, "operate");
  const services = requireService(ctx, "services");
  const { db, workspaceId, actor } = ctx;
  const runId = await db.$transaction(async (tx) => {
    await lockJobRuns(tx, input.jobId);
    const job = await tx.job.findFirst({
      where: { id: input.jobId, workspaceId, removedAt: null },
      select: { name: true, status: true, tokenBudget: true },
    });
    if (!job || job.status === "REMOVED") throw notFound("Job");
    if (job.status !== "APPROVED") {
      throw new AppError(
        "PRECONDITION_FAILED",
        "This job needs the owner's approval before it can run.",
        { reason: "JOB_NOT_APPROVED" },
      );
    }
    if (await findActiveRun(tx, workspaceId, input.jobId)) {
      throw new AppError(
        "CONFLICT",
        "A run of this job is already queued or running; wait for it to finish.",
        { reason: "RUN_ALREADY_ACTIVE" },
      );
    }
    const run = await insertQueuedRun(tx, {
      workspaceId,
      jobId: input.jobId,
      trigger: "MANUAL",
      scheduledFor: null,
      jobTokenBudget: job.tokenBudget,
    });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "run.requested",
      targetType: "Run",
      targetId: run.id,
      // A run is named by its job.
      targetLabel: job.name,
      outcome: "queued",
    });
    return run.id;
  });
  await services.enqueueRun({ runId, workspaceId });
  return { runId };
}

// Pause and resume a job's schedule (owners and admins, C02). The schedule follows at once.
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, requireService, type ActorContext } from "../context.ts";

async function setPaused(ctx: ActorContext, jobId: string, paused: boolean): Promise<void> {
  await requireRole(ctx, "operate");
  const services = requireService(ctx, "services");
  const { db, workspaceId, actor } = ctx;
  await db.$transaction(async (tx) => {
    const updated = await tx.job.updateManyAndReturn({
      where: { id: jobId, workspaceId, removedAt: null },
      data: { enabled: !paused },
      select: { name: true },
    });
    const job = updated[0];
    if (!job) throw notFound("Job");
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: paused ? "job.paused" : "job.resumed",
      targetType: "Job",
      targetId: jobId,
      targetLabel: job.name,
    });
  });
  await services.syncSchedules(workspaceId);
}

export async function pauseJob(ctx: ActorContext, input: { jobId: string }): Promise<void> {
  await setPaused(ctx, input.jobId, true);
}

export async function resumeJob(ctx: ActorContext, input: { jobId: string }): Promise<void> {
  await setPaused(ctx, input.jobId, false);
}

// Owner or admin: whether events from people without write access to the repository may start
// this job (E03, issue #25 item 5). Default off; the repository's config can never turn it on.
// When on, such runs' outputs are always held for an owner's approval (the worker's rule).
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, type ActorContext } from "../context.ts";

export async function setOutsiderEvents(
  ctx: ActorContext,
  input: { jobId: string; allow: boolean },
): Promise<{ allowOutsiderEvents: boolean }> {
  await requireRole(ctx, "operate");
  const { db, workspaceId, actor } = ctx;
  return db.$transaction(async (tx) => {
    const updated = await tx.job.updateManyAndReturn({
      where: { id: input.jobId, workspaceId, removedAt: null },
      data: { allowOutsiderEvents: input.allow },
      select: { name: true, allowOutsiderEvents: true },
    });
    const job = updated[0];
    if (!job) throw notFound("Job");
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "job.outsider_events_changed",
      targetType: "Job",
      targetId: input.jobId,
      targetLabel: job.name,
      outcome: input.allow ? "allowed" : "not_allowed",
    });
    return { allowOutsiderEvents: job.allowOutsiderEvents };
  });
}

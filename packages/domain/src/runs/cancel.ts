// Cancel (owners and admins, C02): a queued run is cancelled at once; a running one gets a
// cancel request that its executor sees within one stop poll (≤ 2 s).
import type { RunStatus } from "@secondshift/db";
import { requestCancel } from "@secondshift/run-lifecycle";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, type ActorContext } from "../context.ts";

export async function cancelRun(
  ctx: ActorContext,
  input: { runId: string },
): Promise<{ status: RunStatus }> {
  await requireRole(ctx, "operate");
  const { db, workspaceId, actor } = ctx;
  const run = await db.run.findFirst({
    where: { id: input.runId, workspaceId },
    select: { id: true, workspaceId: true, job: { select: { name: true } } },
  });
  if (!run) throw notFound("Run");
  return db.$transaction(async (tx) => {
    const status = await requestCancel(tx, { id: run.id, workspaceId: run.workspaceId });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "run.cancel_requested",
      targetType: "Run",
      targetId: run.id,
      targetLabel: run.job.name,
    });
    return { status: status ?? "CANCELLED" };
  });
}

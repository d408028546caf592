// Cancel (owners and admins, C02): a queued run is cancelled at once; a running one gets a
// cancel request that its executor sees within one stop poll (≤ 2 s).
import type { Prisma, RunStatus } from "@secondshift/db";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, type ActorContext } from "../context.ts";

/**
 * The run-status write of a cancel, conditional so it never overwrites a final status. The one
 * place to swap for the run-lifecycle module's `requestCancel`.
 */
export async function requestCancelStatus(
  tx: Prisma.TransactionClient,
  run: { id: string; workspaceId: string },
  now: Date,
): Promise<void> {
  await tx.run.updateMany({
    where: { id: run.id, workspaceId: run.workspaceId, status: "QUEUED" },
    data: { status: "CANCELLED", finishedAt: now, cancelRequestedAt: now },
  });
  await tx.run.updateMany({
    where: { id: run.id, workspaceId: run.workspaceId, status: "RUNNING", cancelRequestedAt: null },
    data: { cancelRequestedAt: now },
  });
}

export async function cancelRun(
  ctx: ActorContext,
  input: { runId: string },
): Promise<{ status: RunStatus }> {
  await requireRole(ctx, "operate");
  const { db, workspaceId, actor } = ctx;
  const run = await db.run.findFirst({
    where: { id: input.runId, workspaceId },
    select: { id: true, workspaceId: true },
  });
  if (!run) throw notFound("Run");
  return db.$transaction(async (tx) => {
    await requestCancelStatus(tx, run, new Date());
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "run.cancel_requested",
      targetType: "Run",
      targetId: run.id,
    });
    const after = await tx.run.findFirstOrThrow({
      where: { id: run.id, workspaceId },
      select: { status: true },
    });
    return { status: after.status };
  });
}

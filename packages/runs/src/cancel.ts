// Cancel by API (owners and admins): a queued run is cancelled at once; a running one gets a
// cancel request that its executor sees within one stop poll (≤ 2 s).
import type { Db } from "@secondshift/db";
import { AppError } from "@secondshift/errors";

export async function cancelRun(
  db: Db,
  input: { actorUserId: string; workspaceId: string; runId: string },
): Promise<{ status: string }> {
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: input.actorUserId } },
  });
  const run = membership
    ? await db.run.findFirst({ where: { id: input.runId, workspaceId: input.workspaceId } })
    : null;
  if (!membership || !run)
    throw new AppError("NOT_FOUND", "No such run in this workspace.", { reason: "RUN_NOT_FOUND" });
  if (membership.role === "VIEWER")
    throw new AppError("FORBIDDEN", "Viewers cannot cancel runs; ask an admin or owner.", {
      reason: "ROLE_REQUIRED",
    });
  const now = new Date();
  await db.$transaction([
    db.run.updateMany({
      where: { id: run.id, workspaceId: run.workspaceId, status: "QUEUED" },
      data: { status: "CANCELLED", finishedAt: now, cancelRequestedAt: now },
    }),
    db.run.updateMany({
      where: {
        id: run.id,
        workspaceId: run.workspaceId,
        status: "RUNNING",
        cancelRequestedAt: null,
      },
      data: { cancelRequestedAt: now },
    }),
    db.auditEvent.create({
      data: {
        workspaceId: run.workspaceId,
        actorType: "USER",
        actorId: input.actorUserId,
        action: "run.cancel",
        targetType: "Run",
        targetId: run.id,
      },
    }),
  ]);
  const after = await db.run.findFirstOrThrow({
    where: { id: run.id, workspaceId: run.workspaceId },
    select: { status: true },
  });
  return { status: after.status };
}

// Owner: change a member's role or remove them. A workspace always keeps an owner: the last
// owner cannot be demoted or removed (nor leave). The owners are counted under a lock on the
// workspace row, so two owners demoting each other at once cannot both succeed.
import { notifyAccessChanged, type Role } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, type ActorContext, type DbClient } from "../context.ts";

const lastOwner = () =>
  new AppError(
    "PRECONDITION_FAILED",
    "This is the workspace's last owner. Make another member an owner first.",
    { reason: "LAST_OWNER" },
  );

/** The target's membership, with the workspace row locked until the transaction ends. */
async function lockedMembership(tx: DbClient, workspaceId: string, userId: string) {
  await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${workspaceId} FOR UPDATE`;
  const membership = await tx.membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    select: { id: true, role: true, user: { select: { name: true, email: true } } },
  });
  if (!membership) throw notFound("Member");
  return membership;
}

/** A member is named as the members screen names them: their name, else their email. */
const memberLabel = (user: { name: string; email: string }) => user.name.trim() || user.email;

async function refuseLastOwner(tx: DbClient, workspaceId: string, role: Role): Promise<void> {
  if (role !== "OWNER") return;
  const owners = await tx.membership.count({ where: { workspaceId, role: "OWNER" } });
  if (owners <= 1) throw lastOwner();
}

export async function changeMemberRole(
  ctx: ActorContext,
  input: { userId: string; role: Role },
): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  await db.$transaction(async (tx) => {
    const membership = await lockedMembership(tx, workspaceId, input.userId);
    if (membership.role === input.role) return;
    if (input.role !== "OWNER") await refuseLastOwner(tx, workspaceId, membership.role);
    await tx.membership.update({ where: { id: membership.id }, data: { role: input.role } });
    // Their open live streams re-check at once (delivered at commit).
    await notifyAccessChanged(tx, input.userId);
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "member.role_changed",
      targetType: "Membership",
      targetId: membership.id,
      targetLabel: memberLabel(membership.user),
      outcome: input.role.toLowerCase(),
    });
  });
}

/** Removes a member (an owner may remove themselves, unless they are the last owner). */
export async function removeMember(ctx: ActorContext, input: { userId: string }): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  await db.$transaction(async (tx) => {
    const membership = await lockedMembership(tx, workspaceId, input.userId);
    await refuseLastOwner(tx, workspaceId, membership.role);
    await tx.membership.delete({ where: { id: membership.id } });
    // Their open live streams end at once (delivered at commit), not at their next check.
    await notifyAccessChanged(tx, input.userId);
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "member.removed",
      targetType: "Membership",
      targetId: membership.id,
      targetLabel: memberLabel(membership.user),
    });
  });
}

// Invitation create / revoke: workspace owner use cases. They live here until the domain layer
// (packages/access) is restructured; at merge they move there onto its `requireRole`.
// TODO(integrator): replace `requireOwner` with the domain layer's requireRole(ctx, ownerOnly).
import { mintToken } from "@secondshift/crypto";
import type { Role } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { normaliseEmail, type AccountsDeps, type DbClient } from "./deps.ts";

export const defaultInvitationTtlMs = 7 * 24 * 3600_000;

export interface OwnerContext {
  userId: string;
  workspaceId: string;
}

/** Minimal owner check: not a member → not found (P05); a member but not owner → forbidden. */
async function requireOwner(db: DbClient, ctx: OwnerContext, action: string): Promise<void> {
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: ctx.workspaceId, userId: ctx.userId } },
    select: { role: true },
  });
  if (!membership) {
    throw new AppError("NOT_FOUND", "Workspace was not found.", {
      reason: "WORKSPACE_NOT_FOUND",
    });
  }
  if (membership.role !== "OWNER") {
    throw new AppError("FORBIDDEN", `Only a workspace owner can ${action}; ask the owner.`, {
      reason: "ROLE_NOT_ALLOWED",
    });
  }
}

export interface CreateInvitationInput {
  email: string;
  role: Role;
  ttlMs?: number;
}

export interface CreatedInvitation {
  invitationId: string;
  /** Goes into the link shown once to the owner; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

export async function createInvitation(
  deps: AccountsDeps,
  ctx: OwnerContext,
  input: CreateInvitationInput,
): Promise<CreatedInvitation> {
  await requireOwner(deps.db, ctx, "invite people");
  const email = normaliseEmail(input.email);
  const member = await deps.db.membership.findFirst({
    where: { workspaceId: ctx.workspaceId, user: { email } },
    select: { id: true },
  });
  if (member) {
    throw new AppError("CONFLICT", "This person is already a member of the workspace.", {
      reason: "ALREADY_MEMBER",
    });
  }
  const { token, hash } = mintToken("invitation");
  const expiresAt = new Date(deps.now().getTime() + (input.ttlMs ?? defaultInvitationTtlMs));
  const invitation = await deps.db.invitation.create({
    data: {
      workspaceId: ctx.workspaceId,
      email,
      role: input.role,
      tokenHash: hash,
      invitedById: ctx.userId,
      expiresAt,
    },
    select: { id: true },
  });
  await deps.db.auditEvent.create({
    data: {
      workspaceId: ctx.workspaceId,
      actorType: "USER",
      actorId: ctx.userId,
      action: "invitation.create",
      targetType: "Invitation",
      targetId: invitation.id,
    },
  });
  return { invitationId: invitation.id, token, expiresAt };
}

export async function revokeInvitation(
  deps: AccountsDeps,
  ctx: OwnerContext,
  invitationId: string,
): Promise<void> {
  await requireOwner(deps.db, ctx, "withdraw invitations");
  const { count } = await deps.db.invitation.updateMany({
    where: { id: invitationId, workspaceId: ctx.workspaceId, acceptedAt: null, revokedAt: null },
    data: { revokedAt: deps.now() },
  });
  if (count === 0) {
    throw new AppError(
      "NOT_FOUND",
      "That invitation was not found, or it was already used or withdrawn.",
      { reason: "INVITATION_NOT_FOUND" },
    );
  }
  await deps.db.auditEvent.create({
    data: {
      workspaceId: ctx.workspaceId,
      actorType: "USER",
      actorId: ctx.userId,
      action: "invitation.revoke",
      targetType: "Invitation",
      targetId: invitationId,
    },
  });
}

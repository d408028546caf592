// Owner: invite someone with a role, or withdraw an invitation not used yet. The token is
// returned once (it goes into the link shown to the owner); only its hash is stored. Accepting
// stays in @secondshift/accounts, where accounts and sessions are made.
import { mintToken } from "@secondshift/crypto";
import type { Role } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import { nowOf, requireRole, type ActorContext } from "../context.ts";

export const DEFAULT_INVITATION_TTL_MS = 7 * 24 * 3600_000;

export interface CreateInvitationInput {
  email: string;
  role: Role;
  ttlMs?: number;
}

export interface CreatedInvitation {
  invitationId: string;
  /** Shown once to the owner inside the link; never stored. */
  token: string;
  expiresAt: Date;
}

export async function createInvitation(
  ctx: ActorContext,
  input: CreateInvitationInput,
): Promise<CreatedInvitation> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  const email = input.email.trim().toLowerCase();
  const member = await db.membership.findFirst({
    where: { workspaceId, user: { email } },
    select: { id: true },
  });
  if (member) {
    throw new AppError("CONFLICT", "This person is already a member of the workspace.", {
      reason: "ALREADY_MEMBER",
    });
  }
  const { token, hash } = mintToken("invitation");
  const expiresAt = new Date(nowOf(ctx).getTime() + (input.ttlMs ?? DEFAULT_INVITATION_TTL_MS));
  const invitationId = await db.$transaction(async (tx) => {
    const row = await tx.invitation.create({
      data: {
        workspaceId,
        email,
        role: input.role,
        tokenHash: hash,
        invitedById: actor.userId,
        expiresAt,
      },
      select: { id: true },
    });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "invitation.created",
      targetType: "Invitation",
      targetId: row.id,
      // Invitations are named by whom they invite (the owner typed it; members see members).
      targetLabel: email,
    });
    return row.id;
  });
  return { invitationId, token, expiresAt };
}

export async function revokeInvitation(
  ctx: ActorContext,
  input: { invitationId: string },
): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  await db.$transaction(async (tx) => {
    const revoked = await tx.invitation.updateManyAndReturn({
      where: { id: input.invitationId, workspaceId, acceptedAt: null, revokedAt: null },
      data: { revokedAt: nowOf(ctx) },
      select: { email: true },
    });
    const invitation = revoked[0];
    if (!invitation) {
      throw new AppError(
        "NOT_FOUND",
        "That invitation was not found, or it was already used or withdrawn.",
        { reason: "INVITATION_NOT_FOUND" },
      );
    }
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "invitation.revoked",
      targetType: "Invitation",
      targetId: input.invitationId,
      targetLabel: invitation.email,
    });
  });
}

/** An invitation still waiting to be used (neither accepted, withdrawn nor expired). */
export interface PendingInvitation {
  invitationId: string;
  email: string;
  role: Role;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
}

/** Owner: the workspace's open invitations (never a token: only its hash is stored). */
export async function listInvitations(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<PendingInvitation[]> {
  await requireRole(ctx, "own");
  const rows = await ctx.db.invitation.findMany({
    where: {
      workspaceId: ctx.workspaceId,
      acceptedAt: null,
      revokedAt: null,
      expiresAt: { gt: nowOf(ctx) },
    },
    select: {
      id: true,
      email: true,
      role: true,
      invitedById: true,
      createdAt: true,
      expiresAt: true,
    },
    orderBy: { createdAt: "desc" },
  });
  const inviters = await ctx.db.user.findMany({
    where: { id: { in: [...new Set(rows.map((r) => r.invitedById))] } },
    select: { id: true, name: true },
  });
  const nameOf = new Map(inviters.map((u) => [u.id, u.name]));
  return rows.map((r) => ({
    invitationId: r.id,
    email: r.email,
    role: r.role,
    invitedBy: nameOf.get(r.invitedById) ?? "A former member",
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
  }));
}

// Accepting an invitation: single use (a conditional update claims it; a second accept finds
// nothing to claim), expiring and revocable, each with its own clear error. The invitee is
// either a signed-in user with the invited email, or a new account created with that email.
import { hashToken, looksLikeToken } from "@secondshift/crypto";
import { recordAudit } from "@secondshift/domain";
import type { InvitationModel, Role } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { AccountsDeps, DbClient } from "./deps.ts";
import { createSession, type IssuedSession, type SessionClient } from "./sessions.ts";

export type Invitee = { userId: string } | { name: string; password: string };

export interface AcceptInvitationInput {
  token: string;
  invitee: Invitee;
  /** The browser that signs in (User-Agent, address), kept on the new session. */
  client?: SessionClient;
}

export interface AcceptedInvitation {
  workspaceId: string;
  role: Role;
  userId: string;
  /** Present when a new account was created: it is signed in at once. */
  session?: IssuedSession;
}

const ASK = "Ask the workspace owner for a new one.";

function unusable(invitation: Pick<InvitationModel, "acceptedAt" | "revokedAt"> | null): AppError {
  if (!invitation) {
    return new AppError("NOT_FOUND", `This invitation link is not valid. ${ASK}`, {
      reason: "INVITATION_NOT_FOUND",
    });
  }
  const [reason, message] = invitation.acceptedAt
    ? ["INVITATION_USED", `This invitation was already used. ${ASK}`]
    : invitation.revokedAt
      ? ["INVITATION_REVOKED", `This invitation was withdrawn. ${ASK}`]
      : ["INVITATION_EXPIRED", `This invitation has expired. ${ASK}`];
  return new AppError("CONFLICT", message, { reason });
}

/** The invitee with a new account's password already hashed (argon2id runs outside the transaction). */
type HashedInvitee = { userId: string } | { name: string; passwordHash: string };

async function inviteeUserId(tx: DbClient, invitee: HashedInvitee, email: string): Promise<string> {
  if ("userId" in invitee) {
    const user = await tx.user.findUniqueOrThrow({
      where: { id: invitee.userId },
      select: { email: true },
    });
    if (user.email !== email) {
      throw new AppError(
        "FORBIDDEN",
        "This invitation is for another email address. Sign in with that account, or ask the owner to invite you.",
        { reason: "INVITATION_EMAIL_MISMATCH" },
      );
    }
    return invitee.userId;
  }
  if (await tx.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new AppError(
      "CONFLICT",
      "An account with this email already exists. Sign in first, then open the invitation link again.",
      { reason: "ACCOUNT_EXISTS" },
    );
  }
  const user = await tx.user.create({
    data: { email, name: invitee.name.trim(), passwordHash: invitee.passwordHash },
    select: { id: true },
  });
  return user.id;
}

export async function acceptInvitation(
  deps: AccountsDeps,
  input: AcceptInvitationInput,
): Promise<AcceptedInvitation> {
  if (!looksLikeToken("invitation", input.token)) throw unusable(null);
  const tokenHash = hashToken(input.token);
  // Before the hash: a link that cannot be used is refused without costing an argon2id hash
  // (well-formed unknown tokens were an unauthenticated CPU drain). The claim below stays the
  // atomic check: two accepts of one valid link still make one member.
  const found = await deps.db.invitation.findUnique({ where: { tokenHash } });
  if (!found || !usable(found, deps.now())) throw unusable(found);
  const invitee: HashedInvitee =
    "password" in input.invitee
      ? {
          name: input.invitee.name,
          passwordHash: await deps.passwords.hash(input.invitee.password),
        }
      : input.invitee;
  return deps.db.$transaction(async (tx) => {
    const now = deps.now();
    const claimed = await tx.invitation.updateMany({
      where: { tokenHash, acceptedAt: null, revokedAt: null, expiresAt: { gt: now } },
      data: { acceptedAt: now },
    });
    const invitation = await tx.invitation.findUnique({ where: { tokenHash } });
    if (claimed.count === 0 || !invitation) throw unusable(invitation);
    const userId = await inviteeUserId(tx, invitee, invitation.email);
    const membership = await joinWorkspace(tx, invitation, userId);
    const user = await tx.user.findUniqueOrThrow({
      where: { id: userId },
      select: { name: true, email: true },
    });
    await recordAudit(tx, {
      workspaceId: invitation.workspaceId,
      actorType: "USER",
      actorId: userId,
      action: "member.joined",
      targetType: "Membership",
      targetId: membership.id,
      // Named as the members screen names them.
      targetLabel: user.name.trim() || user.email,
      outcome: "invitation",
    });
    const session =
      "userId" in invitee
        ? undefined
        : await createSession(tx, userId, now, deps.sessions, input.client);
    return { workspaceId: invitation.workspaceId, role: invitation.role, userId, session };
  });
}

function usable(invitation: InvitationModel, now: Date): boolean {
  return !invitation.acceptedAt && !invitation.revokedAt && invitation.expiresAt > now;
}

async function joinWorkspace(
  tx: DbClient,
  invitation: InvitationModel,
  userId: string,
): Promise<{ id: string }> {
  const existing = await tx.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: invitation.workspaceId, userId } },
  });
  if (existing) {
    throw new AppError("CONFLICT", "You are already a member of this workspace.", {
      reason: "ALREADY_MEMBER",
    });
  }
  return tx.membership.create({
    data: { workspaceId: invitation.workspaceId, userId, role: invitation.role },
    select: { id: true },
  });
}

// What an invitation link offers, before it is accepted: the workspace, the role and who
// invited, or why the link can no longer be used. The token is the authority (like accepting):
// whoever holds the link may see this, nobody else can find it.
import { hashToken, looksLikeToken } from "@secondshift/crypto";
import type { Role } from "@secondshift/db";
import type { AccountsDeps } from "./deps.ts";

export type InvitationState = "open" | "used" | "revoked" | "expired";

export interface InvitationPreview {
  state: InvitationState;
  workspaceName: string;
  role: Role;
  email: string;
  inviterName: string;
  expiresAt: Date;
}

function stateOf(
  invitation: { acceptedAt: Date | null; revokedAt: Date | null; expiresAt: Date },
  now: Date,
): InvitationState {
  if (invitation.acceptedAt) return "used";
  if (invitation.revokedAt) return "revoked";
  return invitation.expiresAt > now ? "open" : "expired";
}

/** The invitation's summary, or null when the token names none. */
export async function previewInvitation(
  deps: AccountsDeps,
  token: string,
): Promise<InvitationPreview | null> {
  if (!looksLikeToken("invitation", token)) return null;
  const invitation = await deps.db.invitation.findUnique({
    where: { tokenHash: hashToken(token) },
    select: {
      email: true,
      role: true,
      invitedById: true,
      expiresAt: true,
      acceptedAt: true,
      revokedAt: true,
      workspace: { select: { name: true } },
    },
  });
  if (!invitation) return null;
  const inviter = await deps.db.user.findUnique({
    where: { id: invitation.invitedById },
    select: { name: true },
  });
  return {
    state: stateOf(invitation, deps.now()),
    workspaceName: invitation.workspace.name,
    role: invitation.role,
    email: invitation.email,
    inviterName: inviter?.name ?? "A former member",
    expiresAt: invitation.expiresAt,
  };
}

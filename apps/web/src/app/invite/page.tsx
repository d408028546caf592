// Accepting an invitation: the link is /invite#token=… (see the API's invitations.create).
import type { Metadata } from "next";
import { AcceptInvitation } from "../../components/auth/accept-invitation.tsx";
import { AuthCard } from "../../components/auth/auth-card.tsx";
import { currentUser } from "../../trpc/session.ts";

export const metadata: Metadata = { title: "Invitation" };

export default async function InvitePage() {
  const user = await currentUser();
  return (
    <AuthCard title="You are invited">
      <AcceptInvitation signedInAs={user?.email ?? null} />
    </AuthCard>
  );
}

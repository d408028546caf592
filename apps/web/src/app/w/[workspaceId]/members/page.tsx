// Members and invitations. Everyone sees who is in the workspace; owners also invite, change
// roles, remove members and withdraw open invitations.
import { can } from "@secondshift/vocabulary";
import type { Metadata } from "next";
import { Suspense } from "react";
import { InviteForm, OpenInvitations } from "../../../../components/members/invitations.tsx";
import { MembersTable } from "../../../../components/members/members-table.tsx";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../components/ui/states.tsx";
import { api, HydrateClient, prefetch } from "../../../../trpc/server.tsx";
import { requireMembership } from "../../../../trpc/session.ts";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({
  params,
}: {
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  const { user, role } = await requireMembership(workspaceId);
  const isOwner = can(role, "own");
  prefetch(api().members.list.queryOptions({ workspaceId }));
  if (isOwner) prefetch(api().auth.invitations.list.queryOptions({ workspaceId }));
  return (
    <>
      <PageHeader
        title="Members"
        description={
          isOwner
            ? "Invite people with a role, change roles, remove members."
            : "Who is in this workspace. Owners manage members."
        }
      />
      <HydrateClient>
        <div className="flex flex-col gap-8">
          <Suspense fallback={<LoadingState label="Loading members…" />}>
            <MembersTable workspaceId={workspaceId} canManage={isOwner} userId={user.id} />
          </Suspense>
          {isOwner ? (
            <>
              <InviteForm workspaceId={workspaceId} />
              <Suspense fallback={<LoadingState label="Loading invitations…" />}>
                <OpenInvitations workspaceId={workspaceId} />
              </Suspense>
            </>
          ) : null}
        </div>
      </HydrateClient>
    </>
  );
}

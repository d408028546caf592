// Connections: the services jobs may ask to use, and (for owners) the form to add one.
import { can } from "@secondshift/vocabulary";
import type { Metadata } from "next";
import { Suspense } from "react";
import { ConnectionsList } from "../../../../components/connections/connections-list.tsx";
import { CreateConnectionForm } from "../../../../components/connections/create-connection-form.tsx";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../components/ui/states.tsx";
import { StatusNote } from "../../../../components/ui/status-note.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";
import { requireMembership } from "../../../../trpc/session.ts";
import { OAuthStatus } from "../../../../components/connections/oauth-status.tsx";

export const metadata: Metadata = { title: "Connections" };

export default async function ConnectionsPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<{ deleted?: string; oauth?: string; reason?: string }>;
}) {
  const { workspaceId } = await params;
  const { deleted, oauth, reason } = await searchParams;
  const { role } = await requireMembership(workspaceId);
  void getQueryClient().prefetchQuery(api().connections.list.queryOptions({ workspaceId }));
  return (
    <HydrateClient>
      <PageHeader
        title="Connections"
        description="Services jobs may use. Credentials are write-only: never shown after they are saved."
      />
      {typeof deleted === "string" ? (
        <StatusNote message={`Connection "${deleted}" deleted.`} />
      ) : null}
      <OAuthStatus oauth={oauth} reason={reason} />
      <div className="flex flex-col gap-6">
        <Suspense fallback={<LoadingState />}>
          <ConnectionsList workspaceId={workspaceId} />
        </Suspense>
        {can(role, "own") ? (
          <CreateConnectionForm workspaceId={workspaceId} />
        ) : (
          <p className="text-sm text-slate-600">Only an owner adds or changes connections.</p>
        )}
      </div>
    </HydrateClient>
  );
}

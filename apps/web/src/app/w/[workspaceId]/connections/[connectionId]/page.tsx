// One connection: its tools, the jobs that use it, and (for owners) the checklist and deletion.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { ConnectionDetail } from "../../../../../components/connections/connection-detail.tsx";
import { PageHeader } from "../../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../../components/ui/states.tsx";
import { api, caller, getQueryClient, HydrateClient } from "../../../../../trpc/server.tsx";
import { requireMembership } from "../../../../../trpc/session.ts";
import { OAuthStatus } from "../../../../../components/connections/oauth-status.tsx";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The tab says which connection: its name (rendered as text in <title>, escaped by React). */
export async function generateMetadata({
  params,
}: {
  params: Promise<{ workspaceId: string; connectionId: string }>;
}): Promise<Metadata> {
  const { workspaceId, connectionId } = await params;
  if (!UUID.test(connectionId)) return { title: "Connection" };
  try {
    const connection = await (await caller()).connections.get({ workspaceId, connectionId });
    return { title: connection.label };
  } catch {
    // Not found or not a member: the page itself says so.
    return { title: "Connection" };
  }
}

export default async function ConnectionPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string; connectionId: string }>;
  searchParams: Promise<{ oauth?: string; reason?: string }>;
}) {
  const { workspaceId, connectionId } = await params;
  const { oauth, reason } = await searchParams;
  const { role } = await requireMembership(workspaceId);
  if (!UUID.test(connectionId)) notFound();
  void getQueryClient().prefetchQuery(api().connections.list.queryOptions({ workspaceId }));
  void getQueryClient().prefetchQuery(
    api().connections.impact.queryOptions({ workspaceId, connectionId }),
  );
  return (
    <HydrateClient>
      <PageHeader
        title="Connection"
        action={
          <Link
            href={`/w/${workspaceId}/connections`}
            className="text-sm text-indigo-700 underline"
          >
            All connections
          </Link>
        }
      />
      <OAuthStatus oauth={oauth} reason={reason} />
      <Suspense fallback={<LoadingState />}>
        <ConnectionDetail workspaceId={workspaceId} connectionId={connectionId} role={role} />
      </Suspense>
    </HydrateClient>
  );
}

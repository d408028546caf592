// Repositories: sync state, config errors, sync now, and (owners) adding one with its push webhook.
import type { Metadata } from "next";
import { Suspense } from "react";
import { RepositoriesScreen } from "../../../../components/repositories/repositories-screen.tsx";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../components/ui/states.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";
import { requireMembership } from "../../../../trpc/session.ts";

export const metadata: Metadata = { title: "Repositories" };

export default async function RepositoriesPage({
  params,
}: {
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  const { role } = await requireMembership(workspaceId);
  void getQueryClient().prefetchQuery(api().repositories.list.queryOptions({ workspaceId }));
  void getQueryClient().prefetchQuery(api().connections.list.queryOptions({ workspaceId }));
  return (
    <HydrateClient>
      <PageHeader
        title="Repositories"
        description="Each repository's .secondshift.yaml declares jobs; the repository can only request access."
      />
      <Suspense fallback={<LoadingState />}>
        <RepositoriesScreen workspaceId={workspaceId} role={role} />
      </Suspense>
    </HydrateClient>
  );
}

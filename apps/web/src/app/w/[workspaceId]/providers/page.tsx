// Model providers: every member sees them (never a key); owners add, replace keys and delete.
import { can } from "@secondshift/vocabulary";
import type { Metadata } from "next";
import { Suspense } from "react";
import { AddProviderForm } from "../../../../components/providers/add-provider-form.tsx";
import { ProvidersTable } from "../../../../components/providers/providers-table.tsx";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../components/ui/states.tsx";
import { api, HydrateClient, prefetch } from "../../../../trpc/server.tsx";
import { requireMembership } from "../../../../trpc/session.ts";

export const metadata: Metadata = { title: "Model providers" };

export default async function ProvidersPage({
  params,
}: {
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  const { role } = await requireMembership(workspaceId);
  const isOwner = can(role, "own");
  prefetch(api().providers.list.queryOptions({ workspaceId }));
  return (
    <>
      <PageHeader
        title="Model providers"
        description="Where runs send their model requests, through the gateway. Keys are write-only."
      />
      <HydrateClient>
        <div className="flex flex-col gap-8">
          <Suspense fallback={<LoadingState label="Loading providers…" />}>
            <ProvidersTable workspaceId={workspaceId} canManage={isOwner} />
          </Suspense>
          {isOwner ? <AddProviderForm workspaceId={workspaceId} /> : null}
        </div>
      </HydrateClient>
    </>
  );
}

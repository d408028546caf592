// The workspace at a glance: what waits for a decision, what runs, what failed.
import { ACTIVE_STATUSES } from "@secondshift/vocabulary";
import type { Metadata } from "next";
import { Suspense } from "react";
import {
  ActiveRunsPanel,
  ApprovalsPanel,
  FailedDeliveriesPanel,
  RepositoryProblemsPanel,
} from "../../../components/overview/panels.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../components/ui/states.tsx";
import { api, HydrateClient, prefetch } from "../../../trpc/server.tsx";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({
  params,
}: {
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  const trpc = api();
  prefetch(trpc.jobs.list.queryOptions({ workspaceId }));
  prefetch(trpc.runs.list.queryOptions({ workspaceId, status: [...ACTIVE_STATUSES], limit: 20 }));
  prefetch(trpc.webhooks.deliveries.queryOptions({ workspaceId, status: "FAILED", limit: 10 }));
  prefetch(trpc.repositories.list.queryOptions({ workspaceId }));
  const panels = [
    ["approvals", ApprovalsPanel],
    ["runs", ActiveRunsPanel],
    ["deliveries", FailedDeliveriesPanel],
    ["repositories", RepositoryProblemsPanel],
  ] as const;
  return (
    <>
      <PageHeader title="Overview" description="What needs attention in this workspace." />
      <HydrateClient>
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-2">
          {panels.map(([key, Panel]) => (
            <Suspense key={key} fallback={<LoadingState />}>
              <Panel workspaceId={workspaceId} />
            </Suspense>
          ))}
        </div>
      </HydrateClient>
    </>
  );
}

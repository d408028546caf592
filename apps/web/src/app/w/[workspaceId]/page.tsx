// The workspace at a glance: a new workspace's getting-started checklist, then what waits for
// a decision, what runs, what failed.
import { ACTIVE_STATUSES } from "@secondshift/vocabulary";
import type { Metadata } from "next";
import { Suspense } from "react";
import { Overview } from "../../../components/overview/overview.tsx";
import { PageHeader } from "../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../components/ui/states.tsx";
import { api, HydrateClient, prefetch } from "../../../trpc/server.tsx";
import { requireMembership } from "../../../trpc/session.ts";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage({
  params,
}: {
  params: Promise<{ workspaceId: string }>;
}) {
  const { workspaceId } = await params;
  const { role } = await requireMembership(workspaceId);
  const trpc = api();
  prefetch(trpc.workspace.onboarding.queryOptions({ workspaceId }));
  prefetch(trpc.jobs.list.queryOptions({ workspaceId }));
  prefetch(trpc.runs.list.queryOptions({ workspaceId, status: [...ACTIVE_STATUSES], limit: 20 }));
  prefetch(trpc.webhooks.deliveries.queryOptions({ workspaceId, status: "FAILED", limit: 10 }));
  prefetch(trpc.repositories.list.queryOptions({ workspaceId }));
  prefetch(trpc.outputs.waiting.queryOptions({ workspaceId, limit: 20 }));
  return (
    <>
      <PageHeader title="Overview" description="What needs attention in this workspace." />
      <HydrateClient>
        <Suspense fallback={<LoadingState />}>
          <Overview workspaceId={workspaceId} role={role} />
        </Suspense>
      </HydrateClient>
    </>
  );
}

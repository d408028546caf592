// Jobs: every job the workspace's repositories declare, with status and schedule.
import type { Metadata } from "next";
import { Suspense } from "react";
import { JobsList } from "../../../../components/jobs/jobs-list.tsx";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../components/ui/states.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";

export const metadata: Metadata = { title: "Jobs" };

export default async function JobsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  void getQueryClient().prefetchQuery(api().jobs.list.queryOptions({ workspaceId }));
  void getQueryClient().prefetchQuery(api().repositories.list.queryOptions({ workspaceId }));
  return (
    <HydrateClient>
      <PageHeader
        title="Jobs"
        description="Declared in repositories; a job runs only after an owner approves what it may use."
      />
      <Suspense fallback={<LoadingState />}>
        <JobsList workspaceId={workspaceId} />
      </Suspense>
    </HydrateClient>
  );
}

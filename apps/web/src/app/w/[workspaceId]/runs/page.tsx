// Runs: every run of the workspace, newest first, with filters and live status badges.
import type { Metadata } from "next";
import { RunsList } from "../../../../components/runs/runs-list.tsx";
import {
  NO_FILTERS,
  nextRunsCursor,
  runsListInput,
} from "../../../../components/runs/runs-query.ts";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = await params;
  void getQueryClient().prefetchQuery(api().jobs.list.queryOptions({ workspaceId }));
  // Awaited: the first page is in the HTML (the table is the page's largest paint).
  await getQueryClient().prefetchInfiniteQuery(
    api().runs.list.infiniteQueryOptions(runsListInput(workspaceId, NO_FILTERS), {
      getNextPageParam: nextRunsCursor,
    }),
  );
  return (
    <>
      <PageHeader
        title="Runs"
        description="Every run of this workspace's jobs. Open one to follow its transcript live."
      />
      <HydrateClient>
        <RunsList workspaceId={workspaceId} />
      </HydrateClient>
    </>
  );
}

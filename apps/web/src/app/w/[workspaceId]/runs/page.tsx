// Runs: every run of the workspace, newest first, with filters and live status badges.
import type { Metadata } from "next";
import { RunsList } from "../../../../components/runs/runs-list.tsx";
import {
  nextRunsCursor,
  parseRunFilters,
  runsListInput,
} from "../../../../components/runs/runs-query.ts";
import { searchParamsOf, type PageSearchParams } from "../../../../components/ui/url-filters.ts";
import { PageHeader } from "../../../../components/ui/page-header.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../trpc/server.tsx";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage(props: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<PageSearchParams>;
}) {
  const { workspaceId } = await props.params;
  // The filters in the URL, read as the list reads them: the same query key on both sides.
  const filters = parseRunFilters(searchParamsOf(await props.searchParams));
  // Both awaited: the list reads them with useQuery / useInfiniteQuery (no suspense), so data
  // that arrived only in the browser would render differently from the server's HTML (a
  // hydration mismatch, React's #418). The first page is the page's largest paint anyway.
  await Promise.all([
    getQueryClient().prefetchQuery(api().jobs.list.queryOptions({ workspaceId })),
    getQueryClient().prefetchInfiniteQuery(
      api().runs.list.infiniteQueryOptions(runsListInput(workspaceId, filters), {
        getNextPageParam: nextRunsCursor,
      }),
    ),
  ]);
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

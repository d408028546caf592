// One run: its record and the newest page of its transcript (prefetched), then the transcript's
// older pages on scroll and its live tail (streamed in the browser).
import { can } from "@secondshift/vocabulary";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { shortId } from "../../../../../components/runs/format.ts";
import { RunDetail } from "../../../../../components/runs/run-detail.tsx";
import {
  olderPageParam,
  transcriptPageInput,
} from "../../../../../components/runs/transcript-query.ts";
import { PageHeader } from "../../../../../components/ui/page-header.tsx";
import { LoadingState } from "../../../../../components/ui/states.tsx";
import { api, getQueryClient, HydrateClient, trpcCode } from "../../../../../trpc/server.tsx";
import { requireMembership } from "../../../../../trpc/session.ts";

export const metadata: Metadata = { title: "Run" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function RunPage({
  params,
}: {
  params: Promise<{ workspaceId: string; runId: string }>;
}) {
  const { workspaceId, runId } = await params;
  if (!UUID.test(runId)) notFound();
  // A run of another workspace (or none) is a 404 page, not an error.
  await getQueryClient()
    .fetchQuery(api().runs.get.queryOptions({ workspaceId, runId }))
    .catch((error: unknown) => {
      if (trpcCode(error) === "NOT_FOUND") notFound();
      throw error;
    });
  const { role } = await requireMembership(workspaceId);
  await getQueryClient().prefetchQuery(api().outputs.list.queryOptions({ workspaceId, runId }));
  await getQueryClient().prefetchInfiniteQuery(
    api().runs.transcriptPage.infiniteQueryOptions(transcriptPageInput(workspaceId, runId), {
      getNextPageParam: olderPageParam,
    }),
  );
  return (
    <>
      <PageHeader
        title={`Run ${shortId(runId)}`}
        description={<span className="font-mono">{runId}</span>}
      />
      <HydrateClient>
        <Suspense fallback={<LoadingState label="Loading the run…" />}>
          <RunDetail
            workspaceId={workspaceId}
            runId={runId}
            canOperate={can(role, "operate")}
            canOwn={can(role, "own")}
          />
        </Suspense>
      </HydrateClient>
    </>
  );
}

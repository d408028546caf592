// One job: its schedule and controls, its prompt, its triggers and recent events, and the
// access review.
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { AccessReview } from "../../../../../components/jobs/access-review.tsx";
import { JobDetail } from "../../../../../components/jobs/job-detail.tsx";
import { JobEvents } from "../../../../../components/jobs/job-events.tsx";
import { JobTitle } from "../../../../../components/jobs/job-title.tsx";
import { PageLoading } from "../../../../../components/ui/states.tsx";
import { api, getQueryClient, HydrateClient } from "../../../../../trpc/server.tsx";
import { requireMembership } from "../../../../../trpc/session.ts";

export const metadata: Metadata = { title: "Job" };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export default async function JobPage({
  params,
}: {
  params: Promise<{ workspaceId: string; jobId: string }>;
}) {
  const { workspaceId, jobId } = await params;
  if (!UUID.test(jobId)) notFound();
  const { role } = await requireMembership(workspaceId);
  void getQueryClient().prefetchQuery(api().jobs.get.queryOptions({ workspaceId, jobId }));
  void getQueryClient().prefetchQuery(api().jobs.review.queryOptions({ workspaceId, jobId }));
  void getQueryClient().prefetchQuery(api().jobs.events.queryOptions({ workspaceId, jobId }));
  void getQueryClient().prefetchQuery(api().connections.list.queryOptions({ workspaceId }));
  return (
    <HydrateClient>
      {/* The heading comes with the job: its skeleton keeps the page's layout meanwhile. */}
      <Suspense fallback={<PageLoading label="Loading the job…" />}>
        <JobTitle workspaceId={workspaceId} jobId={jobId} />
        <div className="flex flex-col gap-10">
          <JobDetail workspaceId={workspaceId} jobId={jobId} role={role} />
          <JobEvents workspaceId={workspaceId} jobId={jobId} role={role} />
          <AccessReview workspaceId={workspaceId} jobId={jobId} />
        </div>
      </Suspense>
      <p className="mt-8">
        <Link href={`/w/${workspaceId}/jobs`} className="text-sm text-indigo-700 underline">
          All jobs
        </Link>
      </p>
    </HydrateClient>
  );
}

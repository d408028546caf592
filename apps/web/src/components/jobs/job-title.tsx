"use client";
// The job page's heading: the job's name (repository-supplied text, rendered as text).
import { useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/react.tsx";
import { PageHeader } from "../ui/page-header.tsx";

export function JobTitle({ workspaceId, jobId }: { workspaceId: string; jobId: string }) {
  const trpc = useTRPC();
  const { data: job } = useSuspenseQuery(trpc.jobs.get.queryOptions({ workspaceId, jobId }));
  return <PageHeader title={job.name} description={<span className="font-mono">{job.key}</span>} />;
}

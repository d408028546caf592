"use client";
// The workspace's jobs with their status and schedule in words.
import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../trpc/react.tsx";
import { Badge } from "../ui/badge.tsx";
import { EmptyState } from "../ui/states.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { scheduleBadge, scheduleInWords, STATUS_WORDS } from "./words.ts";

export function JobsList({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const jobs = useSuspenseQuery(trpc.jobs.list.queryOptions({ workspaceId }));
  const repos = useSuspenseQuery(trpc.repositories.list.queryOptions({ workspaceId }));
  const repoName = new Map(repos.data.map((r) => [r.id, r.fullName]));
  if (jobs.data.length === 0) {
    return (
      <EmptyState title="No jobs yet">
        Jobs come from a repository&apos;s .secondshift.yaml. Add a repository, then sync it.
      </EmptyState>
    );
  }
  return (
    <Table caption="Jobs">
      <thead>
        <tr>
          <Th>Job</Th>
          <Th>Repository</Th>
          <Th>Status</Th>
          <Th>Schedule</Th>
        </tr>
      </thead>
      <tbody>
        {jobs.data.map((job) => {
          const status = STATUS_WORDS[job.status];
          const schedule = scheduleBadge(job);
          return (
            <Tr key={job.id}>
              <Td>
                <Link
                  href={`/w/${workspaceId}/jobs/${job.id}`}
                  className="font-medium text-indigo-700 underline"
                >
                  {job.name}
                </Link>
                <div className="font-mono text-xs text-slate-600">{job.key}</div>
              </Td>
              <Td>{repoName.get(job.repositoryId) ?? "—"}</Td>
              <Td>
                <span className="flex flex-wrap gap-1">
                  <Badge tone={status.tone}>{status.text}</Badge>
                  {schedule && !job.schedulable ? (
                    <Badge tone={schedule.tone}>{schedule.text}</Badge>
                  ) : null}
                </span>
              </Td>
              <Td>{scheduleInWords(job.schedule, job.timezone)}</Td>
            </Tr>
          );
        })}
      </tbody>
    </Table>
  );
}

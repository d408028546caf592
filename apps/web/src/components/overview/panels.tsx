"use client";
// The overview's panels: what waits for the owner (approvals), what is running now, what
// failed to report (webhook deliveries) and repositories whose sync or config is broken.
// Every string from a repository or a run is rendered as text.
import { useSuspenseQuery } from "@tanstack/react-query";
import { ACTIVE_STATUSES, runPagePath } from "@secondshift/vocabulary";
import Link from "next/link";
import { shortId } from "../runs/format.ts";
import { RunStatusBadge } from "../runs/status-badge.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { useTRPC } from "../../trpc/react.tsx";
import { OverviewSection, Quiet } from "./section.tsx";

const link = "text-indigo-700 underline";

function useJobNames(workspaceId: string) {
  const trpc = useTRPC();
  const { data: jobs } = useSuspenseQuery(trpc.jobs.list.queryOptions({ workspaceId }));
  return { jobs, nameOf: new Map(jobs.map((j) => [j.id, j.name])) };
}

export function ApprovalsPanel({ workspaceId }: { workspaceId: string }) {
  const waiting = useJobNames(workspaceId).jobs.filter((j) => j.status === "NEEDS_APPROVAL");
  return (
    <OverviewSection id="approvals" title="Jobs waiting for approval" count={waiting.length}>
      {waiting.length === 0 ? (
        <Quiet>No job is waiting: every requested access has been decided.</Quiet>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {waiting.map((job) => (
            <li key={job.id}>
              <Link className={link} href={`/w/${workspaceId}/jobs/${job.id}`}>
                {job.name}
              </Link>{" "}
              <span className="text-slate-600">
                ({job.key}, config of <Timestamp value={job.updatedAt} />)
              </span>
            </li>
          ))}
        </ul>
      )}
    </OverviewSection>
  );
}

export function ActiveRunsPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const { nameOf } = useJobNames(workspaceId);
  const { data } = useSuspenseQuery(
    trpc.runs.list.queryOptions({ workspaceId, status: [...ACTIVE_STATUSES], limit: 20 }),
  );
  return (
    <OverviewSection id="active-runs" title="Active runs" count={data.items.length}>
      {data.items.length === 0 ? (
        <Quiet>Nothing is running or queued.</Quiet>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {data.items.map((run) => (
            <li key={run.id} className="flex flex-wrap items-center gap-2">
              <RunStatusBadge status={run.status} />
              <Link className={link} href={runPagePath(workspaceId, run.id)}>
                {nameOf.get(run.jobId) ?? "Run"}
              </Link>
              <span className="text-slate-600">
                {run.startedAt ? "started " : "queued "}
                <Timestamp value={run.startedAt ?? run.queuedAt} />, {run.tokensUsed} of{" "}
                {run.budgetTokens} tokens
              </span>
            </li>
          ))}
        </ul>
      )}
    </OverviewSection>
  );
}

export function FailedDeliveriesPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(
    trpc.webhooks.deliveries.queryOptions({ workspaceId, status: "FAILED", limit: 10 }),
  );
  // "Every report reached its webhook" only when there were reports at all.
  const { data: onboarding } = useSuspenseQuery(
    trpc.workspace.onboarding.queryOptions({ workspaceId }),
  );
  return (
    <OverviewSection
      id="failed-deliveries"
      title="Failed webhook deliveries"
      count={data.items.length}
    >
      {data.items.length === 0 ? (
        <Quiet>
          {onboarding.deliveries === 0
            ? "No run has reported to a webhook yet."
            : "Every run report reached its webhook."}
        </Quiet>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {data.items.map((d) => {
            const last = d.attempts.at(-1);
            return (
              <li key={d.id}>
                {/* A test report has no run: it is named as what it is, with nothing to open. */}
                {d.runId ? (
                  <Link className={link} href={runPagePath(workspaceId, d.runId)}>
                    {`Report of run ${shortId(d.runId)}`}
                  </Link>
                ) : (
                  <span>Test report</span>
                )}{" "}
                <span className="text-slate-600">
                  — {d.attemptCount} attempts,{" "}
                  {last?.statusCode
                    ? `last answered ${last.statusCode}`
                    : (last?.error ?? "no answer")}
                  , <Timestamp value={d.createdAt} />.
                </span>{" "}
                {/* The deliveries list opens filtered to the failed ones (filters are in the URL). */}
                <Link className={link} href={`/w/${workspaceId}/webhooks?status=FAILED`}>
                  Redeliver
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </OverviewSection>
  );
}

export function RepositoryProblemsPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const { data: repositories } = useSuspenseQuery(
    trpc.repositories.list.queryOptions({ workspaceId }),
  );
  const broken = repositories.filter((r) => r.syncError !== null || r.configErrors.length > 0);
  return (
    <OverviewSection id="repository-problems" title="Sync and config errors" count={broken.length}>
      {broken.length === 0 ? (
        <Quiet>Every repository synced and its .secondshift.yaml is valid.</Quiet>
      ) : (
        <ul className="flex flex-col gap-2 text-sm">
          {broken.map((r) => (
            <li key={r.id}>
              <Link className={link} href={`/w/${workspaceId}/repositories`}>
                {r.fullName}
              </Link>
              {r.syncError ? <p className="text-red-800">Sync failed: {r.syncError}</p> : null}
              {r.configErrors.length > 0 ? (
                <ul className="ml-4 list-disc text-slate-700">
                  {r.configErrors.slice(0, 5).map((e, i) => (
                    <li key={i}>
                      <span className="font-mono">
                        {e.file}:{e.line}
                      </span>{" "}
                      {e.message}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </OverviewSection>
  );
}

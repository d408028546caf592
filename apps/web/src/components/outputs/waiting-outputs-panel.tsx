"use client";
// The overview's panel of outputs held for an owner's decision (oldest first: the closest to
// expiring), each linking to its run, where an owner approves or rejects it.
import { runPagePath } from "@secondshift/vocabulary";
import { useSuspenseQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "../../trpc/react.tsx";
import { OverviewSection, Quiet } from "../overview/section.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { outputHeadline } from "./output-state.ts";
import { changeSummary } from "./pull-request-diff.tsx";

const POLL_MS = 15_000;

export function WaitingOutputsPanel({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const { data: waiting } = useSuspenseQuery({
    ...trpc.outputs.waiting.queryOptions({ workspaceId, limit: 20 }),
    // New proposals arrive when runs end: the panel keeps itself current.
    refetchInterval: POLL_MS,
  });
  return (
    <OverviewSection id="held-outputs" title="Results waiting for approval" count={waiting.length}>
      {waiting.length === 0 ? (
        <Quiet>No comment, issue or pull request is waiting for a decision.</Quiet>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {waiting.map((o) => (
            <li key={o.id}>
              <Link className="text-indigo-700 underline" href={runPagePath(workspaceId, o.runId)}>
                {outputHeadline(o)}
              </Link>{" "}
              <span className="text-slate-600">
                ({o.job.name}
                {o.pullRequest ? `, ${changeSummary(o.pullRequest.totals)}` : null}, proposed{" "}
                <Timestamp value={o.proposedAt} />)
              </span>
            </li>
          ))}
        </ul>
      )}
    </OverviewSection>
  );
}

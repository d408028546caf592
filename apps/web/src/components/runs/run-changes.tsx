"use client";
// A run's changes (its diff artifact). The lifecycle writes the diff with the final status, so
// while the run is queued or running this says when they will appear, and the run's record is
// re-read every few seconds (also while a webhook report is pending) until nothing is pending:
// the page never needs a reload to show what the run changed.
import { isActive } from "@secondshift/vocabulary";
import { useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/react.tsx";
import { DiffView } from "./diff-view.tsx";
import { formatTokens } from "./format.ts";

const POLL_MS = 3_000;

export function RunChanges(props: { workspaceId: string; runId: string }) {
  const trpc = useTRPC();
  const input = { workspaceId: props.workspaceId, runId: props.runId };
  const { data: run } = useSuspenseQuery({
    ...trpc.runs.get.queryOptions(input),
    refetchInterval: (query) => {
      const data = query.state.data;
      if (!data) return false;
      const pending = isActive(data.status) || data.deliveries.some((d) => d.status === "PENDING");
      return pending ? POLL_MS : false;
    },
  });
  return (
    <section aria-labelledby="diff-heading" className="flex flex-col gap-2">
      <h2 id="diff-heading" className="text-base font-semibold text-slate-900">
        Changes
      </h2>
      {run.diff !== null && run.diff.text !== "" ? (
        <>
          <DiffView text={run.diff.text} />
          {run.diff.truncated ? (
            <p className="text-xs text-slate-600">
              {`Shown: the first ${formatTokens(run.diff.text.length)} of ${formatTokens(run.diff.totalChars)} characters.`}
            </p>
          ) : null}
        </>
      ) : isActive(run.status) ? (
        <p className="text-sm text-slate-600">
          The files this run changes appear here when it finishes.
        </p>
      ) : (
        <p className="text-sm text-slate-600">The run changed no file.</p>
      )}
    </section>
  );
}

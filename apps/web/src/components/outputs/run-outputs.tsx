"use client";
// The results a run proposed (comments, issues, a pull request), each with its state. Proposals are checked when
// the run ends and applied after it, so the list re-reads itself while the run is active or an
// output is still moving (proposed, ready, approved, applying): no reload needed.
import { isActive, type RunStatus } from "@secondshift/vocabulary";
import { useSuspenseQuery } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/react.tsx";
import { OutputCard } from "./output-card.tsx";
import { MOVING_STATES } from "./output-state.ts";

const POLL_MS = 3_000;

export function RunOutputs(props: {
  workspaceId: string;
  runId: string;
  runStatus: RunStatus;
  canDecide: boolean;
}) {
  const trpc = useTRPC();
  const input = { workspaceId: props.workspaceId, runId: props.runId };
  const query = useSuspenseQuery({
    ...trpc.outputs.list.queryOptions(input),
    refetchInterval: (q) => {
      const moving = (q.state.data ?? []).some((o) => MOVING_STATES.includes(o.state));
      return moving || isActive(props.runStatus) ? POLL_MS : false;
    },
  });
  const outputs = query.data;
  return (
    <section aria-labelledby="outputs-heading" className="flex flex-col gap-2">
      <h2 id="outputs-heading" className="text-base font-semibold text-slate-900">
        Results
      </h2>
      {outputs.length === 0 ? (
        <p className="text-sm text-slate-600">
          {isActive(props.runStatus)
            ? "Comments, issues and pull requests this run proposes appear here."
            : "This run proposed no comment, issue or pull request."}
        </p>
      ) : (
        <ul className="flex flex-col gap-3">
          {outputs.map((output) => (
            <OutputCard
              key={output.id}
              workspaceId={props.workspaceId}
              output={output}
              canDecide={props.canDecide}
              onDecided={() => query.refetch()}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

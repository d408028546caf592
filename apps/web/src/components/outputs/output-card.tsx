"use client";
// One proposed output: its state, what it says (as text), why it is held, refused or failed,
// the link once applied, and — for owners, while it is held — approve or reject (asks first).
// A pull request also shows its branches, size and each changed file's diff. When the job asks
// for the threat review, its verdict is shown with the proposal (a warning held it).
import type { AppRouter } from "@secondshift/api";
import { useMutation } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { SafeLink } from "../ui/safe-link.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { outputHeadline, outputStateWord } from "./output-state.ts";
import { PullRequestDiff, PullRequestSummary } from "./pull-request-diff.tsx";

export type OutputView = inferRouterOutputs<AppRouter>["outputs"]["list"][number];

export function OutputCard(props: {
  workspaceId: string;
  output: OutputView;
  canDecide: boolean;
  onDecided: () => Promise<unknown>;
}) {
  const { output } = props;
  const state = outputStateWord(output.state);
  return (
    <li
      className="rounded-lg border border-slate-200 bg-white p-4"
      data-testid="output"
      data-state={output.state}
    >
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={state.tone}>{state.word}</Badge>
        <span className="text-sm font-medium text-slate-900">{outputHeadline(output)}</span>
        {output.labels.length > 0 ? (
          <span className="text-xs text-slate-600">labels: {output.labels.join(", ")}</span>
        ) : null}
      </div>
      {output.pullRequest ? <PullRequestSummary pullRequest={output.pullRequest} /> : null}
      <OutputStatus output={output} next={state.next} />
      {output.review ? <ThreatReviewVerdict review={output.review} /> : null}
      {output.body || !output.pullRequest ? (
        <pre className="mt-2 max-h-80 overflow-auto rounded-md bg-slate-50 p-3 font-mono text-xs whitespace-pre-wrap break-words text-slate-900">
          {output.body}
        </pre>
      ) : null}
      {output.pullRequest ? <PullRequestDiff pullRequest={output.pullRequest} /> : null}
      {props.canDecide && output.state === "HELD" ? (
        <Decision workspaceId={props.workspaceId} output={output} onDecided={props.onDecided} />
      ) : null}
    </li>
  );
}

function OutputStatus({ output, next }: { output: OutputView; next: string }) {
  return (
    <div className="mt-1 flex flex-col gap-1 text-sm text-slate-700">
      {output.resultUrl ? (
        <span>
          Applied
          {output.appliedAt ? (
            <>
              {" "}
              <Timestamp value={output.appliedAt} />
            </>
          ) : null}
          : <SafeLink href={output.resultUrl}>{output.resultUrl}</SafeLink>
        </span>
      ) : null}
      {output.reason ? <span data-testid="output-reason">{output.reason}</span> : null}
      {next ? <span className="text-slate-600">{next}</span> : null}
      {output.decidedBy ? (
        <span className="text-slate-600">
          Decided by <span title={output.decidedBy.id}>{output.decidedBy.name}</span>{" "}
          <Timestamp value={output.decidedAt} />
        </span>
      ) : null}
    </div>
  );
}

function ThreatReviewVerdict({ review }: { review: NonNullable<OutputView["review"]> }) {
  if (review.verdict === "ok")
    return (
      <p className="mt-1 text-sm text-slate-700" data-testid="output-review" data-verdict="ok">
        Threat review: no concerns
      </p>
    );
  return (
    <div
      className="mt-2 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900"
      data-testid="output-review"
      data-verdict="warn"
    >
      <p className="font-medium">Threat review warns:</p>
      <p className="whitespace-pre-wrap break-words">{review.notes}</p>
    </div>
  );
}

function Decision(props: {
  workspaceId: string;
  output: OutputView;
  onDecided: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const [asking, setAsking] = useState<"approve" | "reject" | null>(null);
  const input = { workspaceId: props.workspaceId, outputId: props.output.id };
  const done = { onSettled: () => (setAsking(null), props.onDecided()) };
  const approve = useMutation(trpc.outputs.approve.mutationOptions(done));
  const reject = useMutation(trpc.outputs.reject.mutationOptions(done));
  const error = approve.error ?? reject.error;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-2">
      <Button onClick={() => setAsking("approve")}>Approve</Button>
      <Button tone="secondary" onClick={() => setAsking("reject")}>
        Reject
      </Button>
      {error ? (
        <span role="alert" className="text-sm text-red-800">
          {errorMessage(error)}
        </span>
      ) : null}
      <ConfirmDialog
        open={asking !== null}
        title={asking === "approve" ? "Apply this output?" : "Reject this output?"}
        confirmLabel={asking === "approve" ? "Approve and apply" : "Reject"}
        tone={asking === "approve" ? "primary" : "danger"}
        pending={approve.isPending || reject.isPending}
        onConfirm={() => (asking === "approve" ? approve.mutate(input) : reject.mutate(input))}
        onCancel={() => setAsking(null)}
      >
        {asking === "approve"
          ? approveWords(props.output)
          : "Nothing will be written; the output cannot be approved afterwards."}
      </ConfirmDialog>
    </div>
  );
}

function approveWords(output: OutputView): string {
  const pr = output.pullRequest;
  if (pr)
    return `SecondShift will push these changes to the new branch ${pr.headBranch} and open ${outputHeadline(output)} against ${pr.baseBranch} on GitHub as its App, once. Nothing is pushed to ${pr.baseBranch} itself.`;
  return `SecondShift will write "${outputHeadline(output)}" to the repository on GitHub as its App, once.`;
}

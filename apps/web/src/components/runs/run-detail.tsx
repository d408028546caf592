"use client";
// One run: status, tokens against budget, timings, the live transcript, the diff artifact, the
// results it proposed (approve / reject for owners) and the webhook reports; Cancel for owners and admins while it is queued or running (asks first).
// The run's record is re-read whenever the transcript shows a status change and when the
// stream ends, so the header always shows the final status. Usage against budget, timings, the
// diff and the deliveries come with the run from runs.get — so does "Tool calls", counted by the
// server over the whole transcript (the page holds only the pages it loaded).
import type { AppRouter } from "@secondshift/api";
import { isActive, RUN_TRIGGER_LABELS } from "@secondshift/vocabulary";
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useEffect, useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { DeliveryList } from "../webhooks/delivery-list.tsx";
import { RunOutputs } from "../outputs/run-outputs.tsx";
import { RunChanges } from "./run-changes.tsx";
import { RunEvent } from "./run-event.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { formatDuration, formatTokens, shortId } from "./format.ts";
import { RunStatusBadge } from "./status-badge.tsx";
import { TranscriptView } from "./transcript.tsx";
import { useTranscript } from "./use-transcript.ts";
import { useTranscriptHistory } from "./use-transcript-history.ts";

/** The run as runs.get returns it. */
type RunView = inferRouterOutputs<AppRouter>["runs"]["get"];

export function RunDetail(props: {
  workspaceId: string;
  runId: string;
  canOperate: boolean;
  /** Owners decide on held outputs. */
  canOwn: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { workspaceId: props.workspaceId, runId: props.runId };
  const { data: run } = useSuspenseQuery(trpc.runs.get.queryOptions(input));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.runs.get.queryKey(input) });
  const history = useTranscriptHistory(input);
  // The live tail starts after the history's newest event: nothing is sent twice.
  const transcript = useTranscript({ ...input, afterSeq: history.newestSeq }, ({ event }) => {
    if (event.type !== "status") return;
    // The status event is written in the same statement as the status: show it at once, then
    // re-read the record for what came with it (timings, summary, usage).
    const status = event.payload.status;
    queryClient.setQueryData(trpc.runs.get.queryKey(input), (old) => old && { ...old, status });
    void refresh();
  });
  // The stream ended at the final status: read the record once more. The lifecycle writes the
  // summary and diff with the final status, so this read has them.
  const ended = transcript.state === "ended";
  useEffect(() => {
    if (ended) void refresh();
  }, [ended]);

  return (
    <div className="flex flex-col gap-6">
      <RunSummaryPanel run={run} {...props} onChanged={refresh} />
      {run.event ? <RunEvent event={run.event} /> : null}
      <TranscriptView
        history={history}
        transcript={transcript}
        shownAbove={{ summary: run.summary, error: run.error }}
      />
      <RunChanges workspaceId={props.workspaceId} runId={props.runId} />
      <RunOutputs
        workspaceId={props.workspaceId}
        runId={props.runId}
        runStatus={run.status}
        canDecide={props.canOwn}
      />
      <section aria-labelledby="deliveries-heading" className="flex flex-col gap-2">
        <h2 id="deliveries-heading" className="text-base font-semibold text-slate-900">
          Webhook reports
        </h2>
        {run.deliveries.length === 0 ? (
          <p className="text-sm text-slate-600">No webhook report for this run.</p>
        ) : (
          <DeliveryList
            workspaceId={props.workspaceId}
            deliveries={run.deliveries}
            canOperate={props.canOperate}
          />
        )}
      </section>
    </div>
  );
}

function RunSummaryPanel(props: {
  run: RunView;
  workspaceId: string;
  canOperate: boolean;
  onChanged: () => Promise<void>;
}) {
  const { run } = props;
  const { usage, timings } = run;
  const used = usage.tokensUsed;
  const budget = usage.budgetTokens;
  return (
    <section aria-label="Run summary" className="rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-sm text-slate-700">Status</span>
        <span data-testid="run-status">
          <RunStatusBadge status={run.status} />
        </span>
        {run.cancelRequestedAt && isActive(run.status) ? (
          <span className="text-sm text-amber-900">Cancel requested; stopping…</span>
        ) : null}
        {props.canOperate ? (
          <CancelRun
            workspaceId={props.workspaceId}
            runId={run.id}
            cancellable={isActive(run.status) && !run.cancelRequestedAt}
            onChanged={props.onChanged}
          />
        ) : null}
      </div>
      <dl className="mt-4 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-3">
        <Item term="Job">{run.job.name}</Item>
        <Item term="Trigger">{RUN_TRIGGER_LABELS[run.trigger]}</Item>
        <Item term="Commit">
          <span className="font-mono">{run.commitSha ? run.commitSha.slice(0, 12) : "—"}</span>
        </Item>
        <Item term="Queued">
          <Timestamp value={run.queuedAt} />
        </Item>
        <Item term="Started">
          <Timestamp value={run.startedAt} />
        </Item>
        <Item term="Finished">
          <Timestamp value={run.finishedAt} />
        </Item>
        <Item term="Waited">{formatDuration(timings.waitMs)}</Item>
        <Item term="Ran for">{formatDuration(timings.runMs)}</Item>
        <Item term="Total">{formatDuration(timings.totalMs)}</Item>
        <Item term="Tokens against budget">
          <span className="flex items-center gap-2">
            <meter
              min={0}
              max={Math.max(budget, 1)}
              value={used}
              high={budget * 0.8}
              aria-label="Tokens used of the budget"
              className="w-28"
            />
            <span>{`${formatTokens(used)} of ${formatTokens(budget)}`}</span>
          </span>
        </Item>
        <Item term="Input / output tokens">
          {`${formatTokens(run.inputTokens)} / ${formatTokens(run.outputTokens)}`}
        </Item>
        <Item term="Tool calls">{formatTokens(usage.toolCalls)}</Item>
      </dl>
      {run.error ? (
        <p role="alert" className="mt-4 rounded-md bg-red-50 p-2 text-sm text-red-900">
          {run.error}
        </p>
      ) : null}
      {run.summary ? (
        <div className="mt-4">
          <h2 className="text-sm font-semibold text-slate-900">Result</h2>
          <p className="mt-1 text-sm whitespace-pre-wrap text-slate-800">{run.summary}</p>
        </div>
      ) : null}
    </section>
  );
}

function Item(props: { term: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-600">{props.term}</dt>
      <dd className="text-slate-900">{props.children}</dd>
    </div>
  );
}

function CancelRun(props: {
  workspaceId: string;
  runId: string;
  cancellable: boolean;
  onChanged: () => Promise<void>;
}) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const cancel = useMutation(
    trpc.runs.cancel.mutationOptions({
      onSuccess: async (result) => {
        setOpen(false);
        setMessage({
          ok: true,
          text:
            result.status === "CANCELLED"
              ? "The run was cancelled."
              : "Cancel requested: the run stops at its next step.",
        });
        await props.onChanged();
      },
      onError: (error) => {
        setOpen(false);
        setMessage({ ok: false, text: errorMessage(error) });
      },
    }),
  );
  return (
    <>
      {props.cancellable ? (
        <Button tone="danger" onClick={() => setOpen(true)}>
          Cancel run
        </Button>
      ) : null}
      {message ? (
        <span role={message.ok ? "status" : "alert"} className="text-sm">
          {message.text}
        </span>
      ) : null}
      <ConfirmDialog
        open={open}
        title={`Cancel run ${shortId(props.runId)}?`}
        confirmLabel="Cancel the run"
        tone="danger"
        pending={cancel.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => cancel.mutate({ workspaceId: props.workspaceId, runId: props.runId })}
      >
        The run stops: a queued run never starts, a running one is stopped at its next step and its
        sandbox removed. Changes it made so far are not applied anywhere.
      </ConfirmDialog>
    </>
  );
}

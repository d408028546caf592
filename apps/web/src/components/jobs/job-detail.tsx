"use client";
// One job: what it does, when it runs (in words, with its timezone, the next fires and skipped
// fires when the API reports them), and the controls an owner or admin has: pause / resume and
// run now.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { can, runPagePath, type Role } from "@secondshift/vocabulary";
import { useTRPC } from "../../trpc/react.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { StatusNote } from "../ui/status-note.tsx";
import { formatTokens, shortId } from "../runs/format.ts";
import { Timestamp } from "../ui/timestamp.tsx";
import { scheduleBadge, scheduleExtras, scheduleInWords, STATUS_WORDS } from "./words.ts";

interface Props {
  workspaceId: string;
  jobId: string;
  role: Role;
}

export function JobDetail({ workspaceId, jobId, role }: Props) {
  const trpc = useTRPC();
  const { data: job } = useSuspenseQuery(trpc.jobs.get.queryOptions({ workspaceId, jobId }));
  const status = STATUS_WORDS[job.status];
  const schedule = scheduleBadge(job);
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap gap-2">
        <Badge tone={status.tone}>{status.text}</Badge>
        {/* Pausing stops scheduled fires only: a job without a schedule has nothing to pause. */}
        {schedule ? <Badge tone={schedule.tone}>{schedule.text}</Badge> : null}
      </div>
      {job.description ? <p className="text-sm text-slate-700">{job.description}</p> : null}
      <Schedule job={job} />
      {can(role, "operate") ? (
        <Controls workspaceId={workspaceId} job={job} />
      ) : (
        <p className="text-sm text-slate-600">
          As a viewer you can read this job but not change it.
        </p>
      )}
      <section aria-labelledby="prompt-heading">
        <h2 id="prompt-heading" className="text-base font-semibold text-slate-900">
          Prompt
        </h2>
        <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-800">
          {job.prompt}
        </pre>
        <p className="mt-2 text-xs text-slate-600">
          Model {job.model ?? "(workspace default)"} · token budget{" "}
          {formatTokens(job.effectiveTokenBudget)}
          {job.tokenBudget === null ? " (workspace default)" : ""} · timeout {job.timeoutSeconds} s
          · config commit <span className="font-mono">{job.configCommit.slice(0, 12)}</span>
        </p>
      </section>
    </div>
  );
}

type Job = {
  id: string;
  schedule: string | null;
  timezone: string;
  enabled: boolean;
  status: string;
  name: string;
};

function Schedule({ job }: { job: Job }) {
  const extras = scheduleExtras(job);
  return (
    <section
      aria-labelledby="schedule-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm"
    >
      <h2 id="schedule-heading" className="text-base font-semibold text-slate-900">
        Schedule
      </h2>
      <p className="mt-1">{scheduleInWords(job.schedule, job.timezone)}</p>
      {job.schedule ? (
        <p className="mt-1 font-mono text-xs text-slate-600">{job.schedule}</p>
      ) : null}
      {extras.nextFireTimes && extras.nextFireTimes.length > 0 ? (
        <>
          <h3 className="mt-3 font-medium text-slate-800">Next runs</h3>
          <ol className="list-decimal pl-5">
            {extras.nextFireTimes.slice(0, 3).map((at) => (
              <li key={at.toISOString()}>
                <Timestamp value={at} timeZone={job.timezone} /> ({job.timezone})
              </li>
            ))}
          </ol>
        </>
      ) : null}
      {extras.skippedFires && extras.skippedFires.lastWeek > 0 ? (
        <p className="mt-3 text-amber-900">
          {extras.skippedFires.lastWeek} scheduled run
          {extras.skippedFires.lastWeek === 1 ? "" : "s"} skipped in the last week
          {extras.skippedFires.lastAt ? (
            <>
              , the last <Timestamp value={extras.skippedFires.lastAt} />
            </>
          ) : null}
          .
        </p>
      ) : null}
      {extras.recentSkippedFires && extras.recentSkippedFires.length > 0 ? (
        <ul className="mt-1 list-disc pl-5 text-amber-900">
          {extras.recentSkippedFires.map((s) => (
            <li key={s.at.toISOString()}>
              <Timestamp value={s.at} />: {s.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function Controls({ workspaceId, job }: { workspaceId: string; job: Job }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const [confirmRun, setConfirmRun] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() });
  const pause = useMutation(
    trpc.jobs.pause.mutationOptions({
      onSuccess: async () => {
        setDone("Schedule paused: no scheduled run starts until you resume it.");
        await refresh();
      },
    }),
  );
  const resume = useMutation(
    trpc.jobs.resume.mutationOptions({
      onSuccess: async () => {
        setDone("Schedule resumed.");
        await refresh();
      },
    }),
  );
  const runNow = useMutation(
    trpc.jobs.runNow.mutationOptions({
      onSuccess: ({ runId }) => {
        setConfirmRun(false);
        setDone(`Run ${shortId(runId)} queued; opening it…`);
        // The owner asked for a run: show it (its live transcript starts there).
        router.push(runPagePath(workspaceId, runId));
      },
    }),
  );
  const error = pause.error ?? resume.error ?? runNow.error;
  const input = { workspaceId, jobId: job.id };
  return (
    <section aria-labelledby="controls-heading" className="flex flex-col gap-2">
      <h2 id="controls-heading" className="sr-only">
        Controls
      </h2>
      <div className="flex flex-wrap items-center gap-2">
        {job.schedule === null ? null : job.enabled ? (
          <Button
            tone="secondary"
            pending={pause.isPending}
            onClick={() => {
              setDone(null);
              pause.mutate(input);
            }}
          >
            Pause schedule
          </Button>
        ) : (
          <Button
            tone="secondary"
            pending={resume.isPending}
            onClick={() => {
              setDone(null);
              resume.mutate(input);
            }}
          >
            Resume schedule
          </Button>
        )}
        <Button
          disabled={job.status !== "APPROVED"}
          onClick={() => {
            setDone(null);
            setConfirmRun(true);
          }}
        >
          Run now
        </Button>
        {job.status !== "APPROVED" ? (
          <span className="text-sm text-slate-600">
            Runs start only after an owner approves the job.
          </span>
        ) : null}
      </div>
      <StatusNote message={done} />
      {error ? <StatusNote tone="bad" message={errorMessage(error)} /> : null}
      <ConfirmDialog
        open={confirmRun}
        title={`Run "${job.name}" now?`}
        confirmLabel="Run now"
        pending={runNow.isPending}
        onCancel={() => setConfirmRun(false)}
        onConfirm={() => runNow.mutate(input)}
      >
        A run starts outside the schedule, with the access the owner approved.
      </ConfirmDialog>
    </section>
  );
}

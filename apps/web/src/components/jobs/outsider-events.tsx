"use client";
// The owner's per-job choice on events from people without write access to the repository
// (E03): off by default; the repository's config cannot turn it on. Owners and admins change it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { StatusNote } from "../ui/status-note.tsx";

export const OUTSIDER_EVENTS_LABEL =
  "Events from people without write access may start this job; their runs' outputs are always held for approval";

export function OutsiderEventsToggle(props: {
  workspaceId: string;
  jobId: string;
  allowed: boolean;
  canChange: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const [done, setDone] = useState<string | null>(null);
  const set = useMutation(
    trpc.jobs.setOutsiderEvents.mutationOptions({
      onSuccess: async ({ allowOutsiderEvents }) => {
        setDone(
          allowOutsiderEvents
            ? "Saved: events from people without write access may start this job; its outputs from those runs wait for approval."
            : "Saved: only events from people with write access start this job.",
        );
        await queryClient.invalidateQueries({ queryKey: trpc.jobs.pathKey() });
      },
    }),
  );
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          className="mt-1"
          checked={props.allowed}
          disabled={!props.canChange || set.isPending}
          onChange={(event) => {
            setDone(null);
            set.mutate({
              workspaceId: props.workspaceId,
              jobId: props.jobId,
              allow: event.currentTarget.checked,
            });
          }}
        />
        <span>{OUTSIDER_EVENTS_LABEL}</span>
      </label>
      {props.canChange ? null : (
        <p className="text-slate-600">Only an owner or admin changes this.</p>
      )}
      <StatusNote message={done} />
      {set.error ? <StatusNote tone="bad" message={errorMessage(set.error)} /> : null}
    </div>
  );
}

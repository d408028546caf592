"use client";
// The workspace's settings: its name, how many runs may run at once, the token budget of a run
// whose job declares none, and how many runs an hour events may start (past it a matching event
// is dropped, and the job page says so). Every member reads them; only an owner changes them.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Button } from "../ui/button.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { Field } from "../ui/field.tsx";
import { formText } from "../ui/form-data.ts";
import { StatusNote } from "../ui/status-note.tsx";

/** The API's bounds (workspace.update); the server checks them again. */
const EVENT_RUNS_PER_HOUR = { min: 1, max: 10_000 } as const;
const MAX_CONCURRENT_RUNS = 50;

export function WorkspaceSettingsForm(props: { workspaceId: string; canEdit: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { workspaceId: props.workspaceId };
  const { data: settings } = useSuspenseQuery(trpc.workspace.get.queryOptions(input));
  const [done, setDone] = useState<string | null>(null);
  const save = useMutation(
    trpc.workspace.update.mutationOptions({
      onSuccess: async () => {
        setDone("Settings saved.");
        await queryClient.invalidateQueries({ queryKey: trpc.workspace.pathKey() });
      },
    }),
  );
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const form = new FormData(event.currentTarget);
    save.mutate({
      ...input,
      name: formText(form, "name"),
      maxConcurrentRuns: Number(formText(form, "maxConcurrentRuns")),
      defaultTokenBudget: Number(formText(form, "defaultTokenBudget")),
      eventRunsPerHour: Number(formText(form, "eventRunsPerHour")),
    });
  }
  const disabled = !props.canEdit;
  return (
    <form
      onSubmit={submit}
      aria-label="Workspace settings"
      className="flex max-w-xl flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      <Field label="Name" name="name" required defaultValue={settings.name} disabled={disabled} />
      <Field
        label="Runs at once"
        name="maxConcurrentRuns"
        type="number"
        min={1}
        max={MAX_CONCURRENT_RUNS}
        required
        defaultValue={settings.maxConcurrentRuns}
        disabled={disabled}
        hint="More runs wait in the queue until one finishes."
      />
      <Field
        label="Default token budget per run"
        name="defaultTokenBudget"
        type="number"
        min={1000}
        required
        defaultValue={settings.defaultTokenBudget}
        disabled={disabled}
        hint="For jobs whose .secondshift.yaml sets no tokenBudget."
      />
      <Field
        label="Event-started runs per hour"
        name="eventRunsPerHour"
        type="number"
        min={EVENT_RUNS_PER_HOUR.min}
        max={EVENT_RUNS_PER_HOUR.max}
        required
        defaultValue={settings.eventRunsPerHour}
        disabled={disabled}
        hint={`Runs that pull requests, issues and comment commands may start in this workspace per hour (${EVENT_RUNS_PER_HOUR.min} to ${EVENT_RUNS_PER_HOUR.max}). Past it, a matching event starts nothing and the job page shows it as dropped.`}
      />
      {props.canEdit ? (
        <div className="flex items-center gap-3">
          <Button type="submit" pending={save.isPending}>
            Save settings
          </Button>
          <StatusNote message={done} />
        </div>
      ) : (
        <p className="text-sm text-slate-600">Only an owner changes the workspace settings.</p>
      )}
      {save.error ? <StatusNote tone="bad" message={errorMessage(save.error)} /> : null}
    </form>
  );
}

"use client";
// Repositories: last sync and commit, config errors with file and line, "Sync now" (owners and
// admins), and for owners the form to add one — whose push webhook secret is shown once.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { can, servesGit, type Role } from "@secondshift/vocabulary";
import { useRef, useState, type FormEvent } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { AddressProblem } from "../ui/address-problem.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { errorMessage, fieldErrors } from "../ui/error-message.ts";
import { Field, Label } from "../ui/field.tsx";
import { formText } from "../ui/form-data.ts";
import { SecretOnce } from "../ui/secret-once.tsx";
import { EmptyState } from "../ui/states.tsx";
import { StatusNote } from "../ui/status-note.tsx";
import { Timestamp } from "../ui/timestamp.tsx";

export function RepositoriesScreen({ workspaceId, role }: { workspaceId: string; role: Role }) {
  return (
    <div className="flex flex-col gap-6">
      <RepositoryList workspaceId={workspaceId} canSync={can(role, "operate")} />
      {can(role, "own") ? (
        <AddRepositoryForm workspaceId={workspaceId} />
      ) : (
        <p className="text-sm text-slate-600">Only an owner adds repositories.</p>
      )}
    </div>
  );
}

const POLL_MS = 2_000;

function RepositoryList({ workspaceId, canSync }: { workspaceId: string; canSync: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  // Polls while a sync is asked for or running, so its result appears without a reload.
  const { data } = useSuspenseQuery({
    ...trpc.repositories.list.queryOptions({ workspaceId }),
    refetchInterval: (query) => (query.state.data?.some((r) => r.syncPending) ? POLL_MS : false),
  });
  const [done, setDone] = useState<string | null>(null);
  const sync = useMutation(
    trpc.repositories.syncNow.mutationOptions({
      onSuccess: async () => {
        setDone("Sync queued. The new commit and any config errors appear here when it finishes.");
        await queryClient.invalidateQueries({ queryKey: trpc.repositories.list.queryKey() });
      },
    }),
  );
  if (data.length === 0) {
    return (
      <EmptyState title="No repositories yet">
        An owner adds a repository whose .secondshift.yaml declares the jobs.
      </EmptyState>
    );
  }
  return (
    <section aria-labelledby="repos-heading" className="flex flex-col gap-3">
      <h2 id="repos-heading" className="sr-only">
        Repositories
      </h2>
      <StatusNote message={done} />
      {sync.error ? <StatusNote tone="bad" message={errorMessage(sync.error)} /> : null}
      <ul className="flex flex-col gap-3">
        {data.map((repo) => {
          const errors = repo.configErrors;
          return (
            <li key={repo.id} className="rounded-lg border border-slate-200 bg-white p-4">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div>
                  <h3 className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
                    {repo.fullName}
                    {repo.syncPending ? <Badge tone="info">Syncing…</Badge> : null}
                  </h3>
                  <p className="text-sm text-slate-600">
                    Branch <span className="font-mono">{repo.defaultBranch}</span>
                    {" · "}
                    {repo.lastSyncedAt ? (
                      <>
                        last synced <Timestamp value={repo.lastSyncedAt} /> at commit{" "}
                      </>
                    ) : (
                      "not synced yet"
                    )}
                    {repo.lastSyncedCommit ? (
                      <span className="font-mono">{repo.lastSyncedCommit.slice(0, 12)}</span>
                    ) : null}
                  </p>
                </div>
                {canSync ? (
                  <Button
                    tone="secondary"
                    pending={sync.isPending && sync.variables.repositoryId === repo.id}
                    onClick={() => {
                      setDone(null);
                      sync.mutate({ workspaceId, repositoryId: repo.id });
                    }}
                    aria-label={`Sync now: ${repo.fullName}`}
                  >
                    Sync now
                  </Button>
                ) : null}
              </div>
              <AddressProblem problem={repo.addressProblem} />
              {repo.syncError ? (
                <p className="mt-2 text-sm text-red-800">
                  <Badge tone="bad">Sync failed</Badge> {repo.syncError}
                </p>
              ) : null}
              {errors.length > 0 ? (
                <div className="mt-3">
                  <p className="text-sm font-medium text-red-900">
                    <Badge tone="bad">Config errors</Badge> .secondshift.yaml could not be used:
                  </p>
                  <ul className="mt-1 list-disc pl-5 text-sm text-slate-800">
                    {errors.map((e, i) => (
                      <li key={i}>
                        <span className="font-mono">{`${e.file}, line ${e.line}`}</span>:{" "}
                        {e.message}
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function AddRepositoryForm({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const connections = useSuspenseQuery(trpc.connections.list.queryOptions({ workspaceId }));
  // The push secret lives in this component's state only (never the query cache or the URL).
  const [added, setAdded] = useState<{
    fullName: string;
    pushUrl: string;
    pushSecret: string;
  } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const add = useMutation(
    trpc.repositories.add.mutationOptions({
      onSuccess: async (result) => {
        setAdded(result);
        // Cleared only now: a refused repository keeps what was typed, next to the reason.
        formRef.current?.reset();
        await queryClient.invalidateQueries({ queryKey: trpc.repositories.list.queryKey() });
      },
    }),
  );
  const errors = fieldErrors(add.error);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const connectionId = formText(form, "connectionId");
    const branch = formText(form, "defaultBranch").trim();
    setAdded(null);
    add.mutate({
      workspaceId,
      cloneUrl: formText(form, "cloneUrl"),
      ...(branch ? { defaultBranch: branch } : {}),
      connectionId: connectionId || null,
    });
  }
  return (
    <form
      ref={formRef}
      onSubmit={submit}
      aria-labelledby="add-repo"
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="add-repo" className="text-base font-semibold text-slate-900">
        Add a repository
      </h2>
      <Field
        label="Clone URL"
        name="cloneUrl"
        required
        error={errors.cloneUrl}
        hint="For example https://github.com/acme/app.git"
      />
      <Field label="Default branch (optional)" name="defaultBranch" error={errors.defaultBranch} />
      <div className="flex flex-col gap-1">
        <Label htmlFor="repo-connection">Fetch through connection</Label>
        <select
          id="repo-connection"
          name="connectionId"
          aria-describedby="repo-connection-hint"
          className="rounded-md border border-slate-300 px-3 py-2 text-sm"
        >
          <option value="">None (public repository)</option>
          {connections.data
            .filter((c) => servesGit(c.kind))
            .map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
        </select>
        <p id="repo-connection-hint" className="text-xs text-slate-600">
          Only GitHub connections can fetch a private repository; add one under Connections.
        </p>
      </div>
      <div>
        <Button type="submit" pending={add.isPending}>
          Add repository
        </Button>
      </div>
      {add.error ? <StatusNote tone="bad" message={errorMessage(add.error)} /> : null}
      {added ? (
        <div className="flex flex-col gap-3">
          <StatusNote message={`Repository ${added.fullName} added; its first sync is queued.`} />
          <p className="text-sm text-slate-700">
            Push webhook: in the repository's settings add a webhook for push events with this URL
            and secret (content type application/json).
          </p>
          <p className="text-sm">
            Payload URL: <span className="break-all font-mono text-xs">{added.pushUrl}</span>
          </p>
          <SecretOnce label="Push webhook secret" value={added.pushSecret} />
        </div>
      ) : null}
    </form>
  );
}

"use client";
// One connection: what it is, whether the owner must reconnect, its discovered tools with
// their data-changing marks and the allowed-tools checklist (owner only), a GitHub App's webhook
// for events, the jobs that use it, and deletion — which first says which jobs lose their approval.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { can, type Role } from "@secondshift/vocabulary";
import { useTRPC } from "../../trpc/react.tsx";
import { AddressProblem } from "../ui/address-problem.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { EmptyState, ErrorState } from "../ui/states.tsx";
import { StatusNote } from "../ui/status-note.tsx";
import { formatUtc } from "../ui/time-format.ts";
import { Timestamp } from "../ui/timestamp.tsx";
import { AppWebhook } from "./app-webhook.tsx";
import { DiscoverTools, OAuthConnect } from "./connection-actions.tsx";
import { AUTH_WORDS, KIND_WORDS, reconnectState } from "./words.ts";

interface Props {
  workspaceId: string;
  connectionId: string;
  role: Role;
}

export function ConnectionDetail({ workspaceId, connectionId, role }: Props) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(trpc.connections.list.queryOptions({ workspaceId }));
  const connection = data.find((c) => c.id === connectionId);
  if (!connection) {
    return (
      <ErrorState
        title="Connection not found"
        message="It may have been deleted. Go back to the connections list."
      />
    );
  }
  const reconnect = reconnectState(connection);
  // Connecting, reconnecting, choosing tools and deleting are the owner's (C02).
  const owner = can(role, "own");
  return (
    <div className="flex flex-col gap-6">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
        <dt className="font-medium text-slate-700">Kind</dt>
        <dd>{KIND_WORDS[connection.kind]}</dd>
        <dt className="font-medium text-slate-700">Endpoint</dt>
        <dd className="break-all">
          <span className="font-mono text-xs">{connection.endpoint}</span>
          <AddressProblem problem={connection.addressProblem} />
        </dd>
        <dt className="font-medium text-slate-700">Authentication</dt>
        <dd>
          {AUTH_WORDS[connection.authType]}
          {connection.authType === "NONE" ? null : " — credential set (write-only, never shown)"}
        </dd>
        <dt className="font-medium text-slate-700">Added</dt>
        <dd>
          <Timestamp value={connection.createdAt} />
        </dd>
      </dl>
      {reconnect ? (
        <ErrorState
          title="Reconnect needed"
          message={`${reconnect.message} (since ${formatUtc(reconnect.since)})`}
          action={
            owner && connection.authType === "OAUTH" ? (
              <OAuthConnect
                workspaceId={workspaceId}
                connectionId={connection.id}
                label="Reconnect"
              />
            ) : null
          }
        />
      ) : null}
      {owner && connection.authType === "OAUTH" && !reconnect ? (
        <section aria-labelledby="oauth-heading" className="flex flex-col gap-2">
          <h2 id="oauth-heading" className="text-base font-semibold text-slate-900">
            OAuth
          </h2>
          <p className="text-sm text-slate-600">
            The service&apos;s own page asks you to authorize this connection, then sends you back
            here. Connecting again replaces the stored authorization.
          </p>
          <OAuthConnect
            workspaceId={workspaceId}
            connectionId={connection.id}
            label="Connect with OAuth"
          />
        </section>
      ) : null}
      {connection.webhook ? (
        <AppWebhook
          workspaceId={workspaceId}
          connectionId={connection.id}
          webhook={connection.webhook}
          owner={owner}
        />
      ) : null}
      <ToolsChecklist workspaceId={workspaceId} connection={connection} owner={owner} />
      <JobsUsing workspaceId={workspaceId} connectionId={connectionId} />
      {owner ? (
        <DeleteConnection
          workspaceId={workspaceId}
          connectionId={connectionId}
          label={connection.label}
        />
      ) : null}
    </div>
  );
}

type Connection = {
  id: string;
  allowedTools: string[];
  discoveredTools: Array<{ name: string; mayChangeData: boolean }>;
};

function ToolsChecklist({
  workspaceId,
  connection,
  owner,
}: {
  workspaceId: string;
  connection: Connection;
  owner: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const save = useMutation(
    trpc.connections.setAllowedTools.mutationOptions({
      onSuccess: async (tools) => {
        setDone(
          `Saved: jobs may now use ${tools.length} tool${tools.length === 1 ? "" : "s"} on this connection.`,
        );
        await queryClient.invalidateQueries({ queryKey: trpc.connections.list.queryKey() });
      },
    }),
  );
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const tools = new FormData(event.currentTarget).getAll("tool").map(String);
    save.mutate({ workspaceId, connectionId: connection.id, tools });
  }
  return (
    <section aria-labelledby="tools-heading" className="flex flex-col gap-3">
      <h2 id="tools-heading" className="text-base font-semibold text-slate-900">
        Tools
      </h2>
      <p className="text-sm text-slate-600">
        The tools found when the connection was last checked.
        {owner ? " Discovering asks the service again now." : null}
      </p>
      {owner ? (
        <DiscoverTools
          workspaceId={workspaceId}
          connectionId={connection.id}
          again={connection.discoveredTools.length > 0}
        />
      ) : null}
      {connection.discoveredTools.length === 0 ? (
        <EmptyState title="No tools discovered yet">
          No job can use this connection until its tools are discovered and allowed.
        </EmptyState>
      ) : (
        <form onSubmit={submit} className="flex flex-col gap-3">
          <fieldset className="rounded-lg border border-slate-200 bg-white p-4">
            <legend className="px-1 text-sm font-medium text-slate-800">Tools jobs may use</legend>
            <ul className="flex flex-col gap-2">
              {connection.discoveredTools.map((tool) => (
                <li key={tool.name} className="flex items-center gap-3 text-sm">
                  <label className="flex items-center gap-2">
                    <input
                      type="checkbox"
                      name="tool"
                      value={tool.name}
                      defaultChecked={connection.allowedTools.includes(tool.name)}
                      disabled={!owner}
                    />
                    <span className="font-mono">{tool.name}</span>
                  </label>
                  {tool.mayChangeData ? (
                    <Badge tone="warn">May change data</Badge>
                  ) : (
                    <Badge tone="neutral">Read-only</Badge>
                  )}
                </li>
              ))}
            </ul>
          </fieldset>
          {owner ? (
            <div className="flex items-center gap-3">
              <Button type="submit" pending={save.isPending}>
                Save allowed tools
              </Button>
              <StatusNote message={done} />
            </div>
          ) : (
            <p className="text-sm text-slate-600">Only an owner changes which tools are allowed.</p>
          )}
          {save.error ? <StatusNote tone="bad" message={errorMessage(save.error)} /> : null}
        </form>
      )}
    </section>
  );
}

function JobsUsing({ workspaceId, connectionId }: { workspaceId: string; connectionId: string }) {
  const trpc = useTRPC();
  const { data } = useSuspenseQuery(
    trpc.connections.impact.queryOptions({ workspaceId, connectionId }),
  );
  return (
    <section aria-labelledby="used-by-heading" className="flex flex-col gap-2">
      <h2 id="used-by-heading" className="text-base font-semibold text-slate-900">
        Jobs that use it
      </h2>
      {data.jobs.length === 0 ? (
        <p className="text-sm text-slate-600">No approved job uses this connection.</p>
      ) : (
        <ul className="list-disc pl-5 text-sm">
          {data.jobs.map((job) => (
            <li key={job.grantId}>
              <a className="text-indigo-700 underline" href={`/w/${workspaceId}/jobs/${job.jobId}`}>
                {job.name}
              </a>{" "}
              <span className="font-mono text-xs text-slate-600">({job.key})</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function DeleteConnection({
  workspaceId,
  connectionId,
  label,
}: {
  workspaceId: string;
  connectionId: string;
  label: string;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const { data } = useSuspenseQuery(
    trpc.connections.impact.queryOptions({ workspaceId, connectionId }),
  );
  const remove = useMutation(
    trpc.connections.delete.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.connections.list.queryKey() });
        router.push(`/w/${workspaceId}/connections?deleted=${encodeURIComponent(label)}`);
      },
    }),
  );
  return (
    <section aria-labelledby="delete-heading" className="flex flex-col gap-2">
      <h2 id="delete-heading" className="text-base font-semibold text-slate-900">
        Delete
      </h2>
      <div>
        <Button tone="danger" onClick={() => setOpen(true)}>
          Delete connection
        </Button>
      </div>
      {remove.error ? <StatusNote tone="bad" message={errorMessage(remove.error)} /> : null}
      <ConfirmDialog
        open={open}
        title={`Delete "${label}"?`}
        confirmLabel="Delete connection"
        tone="danger"
        pending={remove.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={() => remove.mutate({ workspaceId, connectionId })}
      >
        <p>Its credential is erased at once. This cannot be undone.</p>
        {data.jobs.length === 0 ? (
          <p className="mt-2">No approved job uses it.</p>
        ) : (
          <>
            <p className="mt-2">
              These jobs lose their approval and stop at their next tool call; an owner must approve
              them again:
            </p>
            <ul className="mt-1 list-disc pl-5">
              {data.jobs.map((job) => (
                <li key={job.grantId}>{job.name}</li>
              ))}
            </ul>
          </>
        )}
      </ConfirmDialog>
    </section>
  );
}

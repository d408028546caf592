"use client";
// The workspace's model providers. The key is write-only: the table says when it was set and
// owners can replace it (the old one is overwritten); nobody can read it back.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { AddressProblem } from "../ui/address-problem.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { Timestamp } from "../ui/timestamp.tsx";
import { EmptyState, Notice } from "../ui/states.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { useTRPC } from "../../trpc/react.tsx";
import { EditModelsDialog, type ModelsTarget } from "./edit-models.tsx";
import { PROVIDER_KINDS } from "./kinds.ts";
import { describeModels } from "./models.ts";
import { VerifyProvider } from "./verify-provider.tsx";

type Acting = { kind: "replace" | "delete"; providerId: string; name: string };

export function ProvidersTable(props: { workspaceId: string; canManage: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: providers } = useSuspenseQuery(
    trpc.providers.list.queryOptions({ workspaceId: props.workspaceId }),
  );
  const [acting, setActing] = useState<Acting | null>(null);
  const [editing, setEditing] = useState<ModelsTarget | null>(null);
  const [newKey, setNewKey] = useState("");
  const [notice, setNotice] = useState<string | null>(null);
  const replaceKey = useMutation(trpc.providers.replaceKey.mutationOptions());
  const remove = useMutation(trpc.providers.delete.mutationOptions());
  const failed = replaceKey.error ?? remove.error;
  const close = () => {
    setActing(null);
    setNewKey("");
    replaceKey.reset();
    remove.reset();
  };
  const done = (message: string) => {
    close();
    setNotice(message);
    void queryClient.invalidateQueries({ queryKey: trpc.providers.list.queryKey() });
  };

  function confirm() {
    if (!acting) return;
    const target = { workspaceId: props.workspaceId, providerId: acting.providerId };
    if (acting.kind === "replace") {
      replaceKey.mutate(
        { ...target, apiKey: newKey },
        { onSuccess: () => done(`The key of ${acting.name} was replaced.`) },
      );
    } else {
      remove.mutate(target, { onSuccess: () => done(`${acting.name} was deleted with its key.`) });
    }
  }

  if (providers.length === 0) {
    return (
      <EmptyState title="No model provider yet">
        Jobs need one to run. {props.canManage ? "Add one below." : "Ask an owner to add one."}
      </EmptyState>
    );
  }
  return (
    <div className="flex flex-col gap-3">
      <Notice message={notice} />
      <Table caption="Model providers">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Kind</Th>
            <Th>Base URL</Th>
            <Th>Default model</Th>
            <Th>Allowed models</Th>
            <Th>API key</Th>
            <Th>Verified</Th>
            {props.canManage ? <Th>Actions</Th> : null}
          </tr>
        </thead>
        <tbody>
          {providers.map((p) => (
            <Tr key={p.id}>
              <Td>
                {p.name} {p.isDefault ? <Badge tone="info">Default</Badge> : null}
              </Td>
              <Td>{PROVIDER_KINDS[p.kind].name}</Td>
              <Td className="break-all">
                {p.baseUrl}
                <AddressProblem problem={p.addressProblem} />
              </Td>
              <Td>{p.defaultModel ?? "—"}</Td>
              <Td>{describeModels(p.allowedModels)}</Td>
              <Td>
                <Badge tone="good">Set</Badge>{" "}
                <span className="text-xs text-slate-600">
                  updated <Timestamp value={p.keyUpdatedAt} />
                </span>
              </Td>
              <Td>
                <span className="text-xs text-slate-600">
                  {p.verifiedAt ? (
                    <>
                      verified <Timestamp value={p.verifiedAt} />
                    </>
                  ) : (
                    "not verified yet"
                  )}
                </span>
                {props.canManage ? (
                  <VerifyProvider workspaceId={props.workspaceId} providerId={p.id} name={p.name} />
                ) : null}
              </Td>
              {props.canManage ? (
                <Td className="whitespace-nowrap">
                  <Button
                    tone="secondary"
                    aria-label={`Edit models of ${p.name}`}
                    onClick={() => setEditing(p)}
                  >
                    Edit models
                  </Button>{" "}
                  <Button
                    tone="secondary"
                    aria-label={`Replace key of ${p.name}`}
                    onClick={() => setActing({ kind: "replace", providerId: p.id, name: p.name })}
                  >
                    Replace key
                  </Button>{" "}
                  <Button
                    tone="secondary"
                    aria-label={`Delete ${p.name}`}
                    onClick={() => setActing({ kind: "delete", providerId: p.id, name: p.name })}
                  >
                    Delete
                  </Button>
                </Td>
              ) : null}
            </Tr>
          ))}
        </tbody>
      </Table>
      <EditModelsDialog
        key={editing?.id ?? "closed"}
        workspaceId={props.workspaceId}
        provider={editing}
        onClose={() => setEditing(null)}
        onDone={(message) => {
          setEditing(null);
          setNotice(message);
        }}
      />
      <ConfirmDialog
        open={acting !== null}
        title={
          acting?.kind === "replace"
            ? `Replace the key of ${acting.name}?`
            : "Delete this provider?"
        }
        confirmLabel={acting?.kind === "replace" ? "Replace key" : "Delete"}
        tone={acting?.kind === "replace" ? "primary" : "danger"}
        pending={replaceKey.isPending || remove.isPending}
        onCancel={close}
        onConfirm={confirm}
      >
        {acting?.kind === "replace" ? (
          <div className="flex flex-col gap-2">
            <p>The current key is overwritten; runs use the new one from their next request.</p>
            <label htmlFor="replacement-key" className="font-medium">
              New API key
            </label>
            <input
              id="replacement-key"
              type="password"
              autoComplete="off"
              value={newKey}
              onChange={(event) => setNewKey(event.target.value)}
              className="rounded-md border border-slate-300 px-3 py-2"
            />
          </div>
        ) : (
          <p>
            {acting?.name} and its key are deleted. Jobs that use it cannot run until they have
            another provider; past runs keep their usage.
          </p>
        )}
        {failed ? (
          <p role="alert" className="mt-2 text-red-800">
            {errorMessage(failed)}
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}

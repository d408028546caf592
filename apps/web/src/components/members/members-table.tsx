"use client";
// Who is in the workspace. Owners change roles and remove members, each after a confirmation
// that says what will change; the API refuses to leave the workspace without an owner.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ROLES, type Role } from "@secondshift/vocabulary";
import { ROLE_WORDS } from "../auth/roles.ts";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { Timestamp } from "../ui/timestamp.tsx";
import { Notice } from "../ui/states.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { useTRPC } from "../../trpc/react.tsx";

type Pending =
  | { kind: "role"; userId: string; name: string; role: Role }
  | { kind: "remove"; userId: string; name: string };

export function MembersTable(props: { workspaceId: string; canManage: boolean; userId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: members } = useSuspenseQuery(
    trpc.members.list.queryOptions({ workspaceId: props.workspaceId }),
  );
  const [pending, setPending] = useState<Pending | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const done = (message: string) => {
    setPending(null);
    setNotice(message);
    void queryClient.invalidateQueries({ queryKey: trpc.members.list.queryKey() });
  };
  const changeRole = useMutation(trpc.members.changeRole.mutationOptions());
  const remove = useMutation(trpc.members.remove.mutationOptions());
  const failed = changeRole.error ?? remove.error;

  function confirm() {
    if (!pending) return;
    const target = { workspaceId: props.workspaceId, userId: pending.userId };
    if (pending.kind === "role") {
      changeRole.mutate(
        { ...target, role: pending.role },
        { onSuccess: () => done(`${pending.name} is now ${ROLE_WORDS[pending.role].name}.`) },
      );
    } else {
      remove.mutate(target, {
        onSuccess: () => done(`${pending.name} was removed from the workspace.`),
      });
    }
  }

  return (
    <section aria-labelledby="members-heading" className="flex flex-col gap-3">
      <h2 id="members-heading" className="text-base font-semibold">
        Members
      </h2>
      <Notice message={notice} />
      <Table caption="Members">
        <thead>
          <tr>
            <Th>Name</Th>
            <Th>Email</Th>
            <Th>Role</Th>
            <Th>Member since</Th>
            {props.canManage ? <Th>Actions</Th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((m) => (
            <Tr key={m.userId}>
              <Td>
                {m.name} {m.userId === props.userId ? <Badge tone="info">You</Badge> : null}
              </Td>
              <Td>{m.email}</Td>
              <Td>
                {props.canManage ? (
                  <select
                    aria-label={`Role of ${m.name}`}
                    value={m.role}
                    onChange={(event) =>
                      setPending({
                        kind: "role",
                        userId: m.userId,
                        name: m.name,
                        role: event.target.value as Role,
                      })
                    }
                    className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {ROLE_WORDS[role].name}
                      </option>
                    ))}
                  </select>
                ) : (
                  ROLE_WORDS[m.role].name
                )}
              </Td>
              <Td>
                <Timestamp value={m.since} />
              </Td>
              {props.canManage ? (
                <Td>
                  <Button
                    tone="secondary"
                    aria-label={`Remove ${m.name}`}
                    onClick={() => setPending({ kind: "remove", userId: m.userId, name: m.name })}
                  >
                    Remove
                  </Button>
                </Td>
              ) : null}
            </Tr>
          ))}
        </tbody>
      </Table>
      <ConfirmDialog
        open={pending !== null}
        title={pending?.kind === "remove" ? "Remove this member?" : "Change this member's role?"}
        confirmLabel={pending?.kind === "remove" ? "Remove" : "Change role"}
        tone={pending?.kind === "remove" ? "danger" : "primary"}
        pending={changeRole.isPending || remove.isPending}
        onConfirm={confirm}
        onCancel={() => {
          setPending(null);
          changeRole.reset();
          remove.reset();
        }}
      >
        {pending?.kind === "role" ? (
          <p>
            {pending.name} becomes {ROLE_WORDS[pending.role].name}: {ROLE_WORDS[pending.role].does}.
          </p>
        ) : pending ? (
          <p>{pending.name} loses access to this workspace at once, on every device.</p>
        ) : null}
        {failed ? (
          <p role="alert" className="mt-2 text-red-800">
            {errorMessage(failed)}
          </p>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}

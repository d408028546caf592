"use client";
// Owners invite people by email with a role. The link is shown once, right here (only its
// hash is stored), and travels to the invitee however the owner chooses. Open invitations are
// listed below and can be withdrawn.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ROLES, type Role } from "@secondshift/vocabulary";
import { ROLE_WORDS } from "../auth/roles.ts";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage, fieldErrors } from "../ui/error-message.ts";
import { Field } from "../ui/field.tsx";
import { formText } from "../ui/form-data.ts";
import { formatUtc } from "../ui/time-format.ts";
import { Timestamp } from "../ui/timestamp.tsx";
import { SecretOnce } from "../ui/secret-once.tsx";
import { EmptyState, Notice } from "../ui/states.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { useTRPC } from "../../trpc/react.tsx";

export function InviteForm({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<{ email: string; link: string; expiresAt: Date } | null>(
    null,
  );
  const invite = useMutation(trpc.auth.invitations.create.mutationOptions());
  const fields = fieldErrors(invite.error);
  return (
    <section aria-labelledby="invite-heading" className="flex flex-col gap-3">
      <h2 id="invite-heading" className="text-base font-semibold">
        Invite someone
      </h2>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          const email = formText(data, "email");
          invite.mutate(
            { workspaceId, email, role: formText(data, "role") as Role },
            {
              onSuccess: (result) => {
                setCreated({ email, link: result.link, expiresAt: result.expiresAt });
                form.reset();
                void queryClient.invalidateQueries({
                  queryKey: trpc.auth.invitations.list.queryKey(),
                });
              },
            },
          );
        }}
      >
        <Field
          label="Email"
          name="email"
          type="email"
          required
          className="min-w-64"
          error={fields.email}
        />
        <div className="flex flex-col gap-1">
          <label htmlFor="invite-role" className="text-sm font-medium text-slate-800">
            Role
          </label>
          <select
            id="invite-role"
            name="role"
            defaultValue="VIEWER"
            className="rounded-md border border-slate-300 bg-white px-2 py-2 text-sm"
          >
            {ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_WORDS[role].name} — {ROLE_WORDS[role].does}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" pending={invite.isPending}>
          Create invitation link
        </Button>
      </form>
      {invite.error && !fields.email ? (
        <p role="alert" className="text-sm text-red-800">
          {errorMessage(invite.error)}
        </p>
      ) : null}
      {created ? (
        <div className="flex flex-col gap-2">
          <Notice
            message={`Invitation created for ${created.email}; the link works once, until ${formatUtc(created.expiresAt)}.`}
          />
          <SecretOnce label="Invitation link" value={created.link} />
        </div>
      ) : null}
    </section>
  );
}

export function OpenInvitations({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { data: invitations } = useSuspenseQuery(
    trpc.auth.invitations.list.queryOptions({ workspaceId }),
  );
  const [withdrawing, setWithdrawing] = useState<{ id: string; email: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const revoke = useMutation(trpc.auth.invitations.revoke.mutationOptions());
  return (
    <section aria-labelledby="open-invitations-heading" className="flex flex-col gap-3">
      <h2 id="open-invitations-heading" className="text-base font-semibold">
        Open invitations
      </h2>
      <Notice message={notice} />
      {invitations.length === 0 ? (
        <EmptyState title="No open invitations">
          Links that were used, withdrawn or have expired are not listed.
        </EmptyState>
      ) : (
        <Table caption="Open invitations">
          <thead>
            <tr>
              <Th>Email</Th>
              <Th>Role</Th>
              <Th>Invited by</Th>
              <Th>Expires</Th>
              <Th>Actions</Th>
            </tr>
          </thead>
          <tbody>
            {invitations.map((i) => (
              <Tr key={i.invitationId}>
                <Td>{i.email}</Td>
                <Td>{ROLE_WORDS[i.role].name}</Td>
                <Td>{i.invitedBy}</Td>
                <Td>
                  <Timestamp value={i.expiresAt} />
                </Td>
                <Td>
                  <Button
                    tone="secondary"
                    aria-label={`Withdraw the invitation for ${i.email}`}
                    onClick={() => setWithdrawing({ id: i.invitationId, email: i.email })}
                  >
                    Withdraw
                  </Button>
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      )}
      <ConfirmDialog
        open={withdrawing !== null}
        title="Withdraw this invitation?"
        confirmLabel="Withdraw"
        tone="danger"
        pending={revoke.isPending}
        onCancel={() => {
          setWithdrawing(null);
          revoke.reset();
        }}
        onConfirm={() => {
          if (!withdrawing) return;
          revoke.mutate(
            { workspaceId, invitationId: withdrawing.id },
            {
              onSuccess: () => {
                setNotice(`The invitation for ${withdrawing.email} was withdrawn.`);
                setWithdrawing(null);
                void queryClient.invalidateQueries({
                  queryKey: trpc.auth.invitations.list.queryKey(),
                });
              },
            },
          );
        }}
      >
        <p>The link sent to {withdrawing?.email} stops working at once.</p>
        {revoke.error ? (
          <p role="alert" className="mt-2 text-red-800">
            {errorMessage(revoke.error)}
          </p>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}

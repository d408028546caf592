"use client";
// Webhooks: who gets a report of which runs, adding one (the signing secret is shown once),
// deleting one (asks first), and every delivery with its attempts.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Timestamp } from "../ui/timestamp.tsx";
import { statusWord } from "../runs/status.ts";
import { AddressProblem } from "../ui/address-problem.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { EmptyState } from "../ui/states.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { CreateWebhookForm } from "./create-webhook-form.tsx";
import { DeliveriesPanel } from "./deliveries-panel.tsx";
import { TestDeliveryButton } from "./test-delivery-button.tsx";

export function WebhooksView(props: {
  workspaceId: string;
  isOwner: boolean;
  canOperate: boolean;
}) {
  const trpc = useTRPC();
  const { data: webhooks } = useSuspenseQuery(
    trpc.webhooks.list.queryOptions({ workspaceId: props.workspaceId }),
  );
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: async () => {
        setMessage({ ok: true, text: `Webhook "${deleting?.name ?? ""}" deleted.` });
        setDeleting(null);
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
      },
      onError: (error) => {
        setMessage({ ok: false, text: errorMessage(error) });
        setDeleting(null);
      },
    }),
  );

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="webhooks-heading" className="flex flex-col gap-3">
        <h2 id="webhooks-heading" className="text-base font-semibold text-slate-900">
          Webhooks
        </h2>
        {message ? (
          <p
            role={message.ok ? "status" : "alert"}
            className={`rounded-md p-2 text-sm ${message.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
          >
            {message.text}
          </p>
        ) : null}
        {webhooks.length === 0 ? (
          <EmptyState title="No webhooks yet">
            {props.isOwner
              ? "Add one below to get a signed report when runs finish."
              : "An owner can add one to get a signed report when runs finish."}
          </EmptyState>
        ) : (
          <Table caption="Webhooks">
            <thead>
              <tr>
                <Th>Name</Th>
                <Th>Jobs</Th>
                <Th>Statuses</Th>
                <Th>State</Th>
                <Th>Added</Th>
                {props.isOwner ? <Th>Actions</Th> : null}
              </tr>
            </thead>
            <tbody>
              {webhooks.map((w) => (
                <Tr key={w.id}>
                  <Td>
                    <span className="font-medium">{w.name}</span>
                    <AddressProblem problem={w.addressProblem} />
                  </Td>
                  <Td>{w.jobKeys.length ? w.jobKeys.join(", ") : "Every job"}</Td>
                  <Td>
                    {w.statuses.length
                      ? w.statuses.map((s) => statusWord(s).word).join(", ")
                      : "Every final status"}
                  </Td>
                  <Td>
                    {w.enabled ? <Badge tone="good">Enabled</Badge> : <Badge>Disabled</Badge>}
                  </Td>
                  <Td className="whitespace-nowrap">
                    <Timestamp value={w.createdAt} />
                  </Td>
                  {props.isOwner ? (
                    <Td className="flex flex-wrap gap-2">
                      <TestDeliveryButton
                        workspaceId={props.workspaceId}
                        webhook={w}
                        onResult={setMessage}
                      />
                      <Button
                        tone="secondary"
                        aria-label={`Delete webhook ${w.name}`}
                        onClick={() => setDeleting({ id: w.id, name: w.name })}
                      >
                        Delete
                      </Button>
                    </Td>
                  ) : null}
                </Tr>
              ))}
            </tbody>
          </Table>
        )}
      </section>
      {props.isOwner ? <CreateWebhookForm workspaceId={props.workspaceId} /> : null}
      <DeliveriesPanel
        workspaceId={props.workspaceId}
        webhooks={webhooks}
        canOperate={props.canOperate}
      />
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete webhook "${deleting?.name ?? ""}"?`}
        confirmLabel="Delete webhook"
        tone="danger"
        pending={remove.isPending}
        onCancel={() => setDeleting(null)}
        onConfirm={() =>
          deleting && remove.mutate({ workspaceId: props.workspaceId, webhookId: deleting.id })
        }
      >
        Its receiver gets no more reports, and reports still waiting to be sent are dropped.
      </ConfirmDialog>
    </div>
  );
}

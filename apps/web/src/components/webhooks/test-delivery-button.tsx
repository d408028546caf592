"use client";
// Sends one signed test report to a webhook (owners) through the real delivery path; it then
// shows under Deliveries with its attempts.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../trpc/react.tsx";
import { Button } from "../ui/button.tsx";
import { errorMessage } from "../ui/error-message.ts";

export function TestDeliveryButton(props: {
  workspaceId: string;
  webhook: { id: string; name: string };
  onResult: (result: { ok: boolean; text: string }) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const send = useMutation(
    trpc.webhooks.testDelivery.mutationOptions({
      onSuccess: async () => {
        props.onResult({
          ok: true,
          text: `Test report queued for "${props.webhook.name}": it shows under Deliveries with each attempt.`,
        });
        await queryClient.invalidateQueries(trpc.webhooks.deliveries.pathFilter());
      },
      onError: (error) => props.onResult({ ok: false, text: errorMessage(error) }),
    }),
  );
  return (
    <Button
      tone="secondary"
      pending={send.isPending}
      aria-label={`Send test report to ${props.webhook.name}`}
      onClick={() => send.mutate({ workspaceId: props.workspaceId, webhookId: props.webhook.id })}
    >
      Send test
    </Button>
  );
}

"use client";
// Sends one signed test report to a webhook (owners) through the real delivery path; it then
// shows under Deliveries with its attempts. `webhooks.testDelivery` is newer than some
// servers: there the API answers that no such procedure exists, and the button says the
// feature is not available yet instead of failing.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { TRPCClientError } from "@trpc/client";
import { useTRPC, useTRPCClient } from "../../trpc/react.tsx";
import { Button } from "../ui/button.tsx";
import { errorMessage, errorReason } from "../ui/error-message.ts";

/** The procedure as newer API versions declare it (not in every server's router type). */
interface TestDeliveryClient {
  webhooks: {
    testDelivery: {
      mutate(input: { workspaceId: string; webhookId: string }): Promise<{ deliveryId: string }>;
    };
  };
}

export const NOT_AVAILABLE = "Test delivery is not available on this server yet.";

function isMissingProcedure(error: unknown): boolean {
  if (!(error instanceof TRPCClientError)) return false;
  const data = error.data as { code?: unknown } | undefined;
  return data?.code === "NOT_FOUND" && errorReason(error) === null;
}

export function TestDeliveryButton(props: {
  workspaceId: string;
  webhook: { id: string; name: string };
  onResult: (result: { ok: boolean; text: string }) => void;
}) {
  const trpc = useTRPC();
  const client = useTRPCClient() as unknown as TestDeliveryClient;
  const queryClient = useQueryClient();
  const send = useMutation({
    mutationFn: () =>
      client.webhooks.testDelivery.mutate({
        workspaceId: props.workspaceId,
        webhookId: props.webhook.id,
      }),
    onSuccess: async () => {
      props.onResult({
        ok: true,
        text: `Test report queued for "${props.webhook.name}": it shows under Deliveries with each attempt.`,
      });
      await queryClient.invalidateQueries(trpc.webhooks.deliveries.pathFilter());
    },
    onError: (error) =>
      props.onResult({
        ok: false,
        text: isMissingProcedure(error) ? NOT_AVAILABLE : errorMessage(error),
      }),
  });
  return (
    <Button
      tone="secondary"
      pending={send.isPending}
      aria-label={`Send test report to ${props.webhook.name}`}
      onClick={() => send.mutate()}
    >
      Send test
    </Button>
  );
}

"use client";
// A GitHub App connection's webhook (issue #25 item 1): the URL to paste into the App's
// settings, whether a secret is set, and for owners "Set / rotate webhook secret", which shows
// the new secret once. Rotating asks first: GitHub's deliveries fail until the App has it.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { SecretOnce } from "../ui/secret-once.tsx";
import { StatusNote } from "../ui/status-note.tsx";

interface Props {
  workspaceId: string;
  connectionId: string;
  webhook: { url: string; secretSet: boolean };
  owner: boolean;
}

export function AppWebhook({ workspaceId, connectionId, webhook, owner }: Props) {
  return (
    <section aria-labelledby="app-webhook-heading" className="flex flex-col gap-2">
      <h2 id="app-webhook-heading" className="text-base font-semibold text-slate-900">
        Webhook for events
      </h2>
      <p className="text-sm text-slate-600">
        Jobs with triggers run when GitHub sends the App&apos;s events (pull requests, issues,
        comments) here. In the GitHub App&apos;s settings, set the webhook URL below and the secret,
        and subscribe to Pull request, Issues and Issue comment events.
      </p>
      <p className="text-sm">
        Webhook URL: <span className="break-all font-mono text-xs">{webhook.url}</span>
      </p>
      <p className="text-sm">
        Secret:{" "}
        {webhook.secretSet ? (
          <Badge tone="good">Set (write-only, never shown again)</Badge>
        ) : (
          <Badge tone="warn">Not set: events from this App are refused</Badge>
        )}
      </p>
      {owner ? (
        <SetSecret
          workspaceId={workspaceId}
          connectionId={connectionId}
          replaces={webhook.secretSet}
        />
      ) : (
        <p className="text-sm text-slate-600">Only an owner sets the webhook secret.</p>
      )}
    </section>
  );
}

function SetSecret(props: { workspaceId: string; connectionId: string; replaces: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState(false);
  // The secret lives in this component's state only (never the query cache or the URL).
  const [shown, setShown] = useState<{ url: string; secret: string } | null>(null);
  const set = useMutation(
    trpc.connections.setWebhookSecret.mutationOptions({
      onSuccess: async (result) => {
        setConfirm(false);
        setShown({ url: result.webhookUrl, secret: result.webhookSecret });
        await queryClient.invalidateQueries({ queryKey: trpc.connections.pathKey() });
      },
    }),
  );
  const run = () =>
    set.mutate({ workspaceId: props.workspaceId, connectionId: props.connectionId });
  return (
    <div className="flex flex-col gap-3">
      <div>
        <Button
          tone="secondary"
          pending={set.isPending}
          onClick={() => {
            setShown(null);
            if (props.replaces) setConfirm(true);
            else run();
          }}
        >
          Set / rotate webhook secret
        </Button>
      </div>
      {set.error ? <StatusNote tone="bad" message={errorMessage(set.error)} /> : null}
      {shown ? (
        <div className="flex flex-col gap-2">
          <StatusNote message="Webhook secret set. Paste it into the GitHub App's settings now." />
          <p className="text-sm">
            Webhook URL: <span className="break-all font-mono text-xs">{shown.url}</span>
          </p>
          <SecretOnce label="GitHub App webhook secret" value={shown.secret} />
        </div>
      ) : null}
      <ConfirmDialog
        open={confirm}
        title="Rotate the webhook secret?"
        confirmLabel="Rotate secret"
        pending={set.isPending}
        onCancel={() => setConfirm(false)}
        onConfirm={run}
      >
        The current secret stops working at once: GitHub&apos;s deliveries are refused until you
        paste the new one into the App&apos;s settings.
      </ConfirmDialog>
    </div>
  );
}

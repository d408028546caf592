"use client";
// Webhook deliveries with every attempt (status code, error in our own words, duration), and
// Redeliver for a failed one (owners and admins; asks first, says what happened).
import { runPagePath } from "@secondshift/vocabulary";
import type { AppRouter } from "@secondshift/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { formatDuration, shortId } from "../runs/format.ts";
import { Badge, type BadgeTone } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { formatUtc } from "../ui/time-format.ts";
import { Timestamp } from "../ui/timestamp.tsx";

/** A webhook report with every attempt, as runs.get and webhooks.deliveries return it. */
export type DeliveryItem = inferRouterOutputs<AppRouter>["runs"]["get"]["deliveries"][number];

const DELIVERY_WORDS: Record<DeliveryItem["status"], { word: string; tone: BadgeTone }> = {
  PENDING: { word: "Pending", tone: "info" },
  DELIVERED: { word: "Delivered", tone: "good" },
  FAILED: { word: "Failed", tone: "bad" },
};

export interface Message {
  ok: boolean;
  text: string;
}

/** What an action did (a status) or why it failed (an alert). */
export function ActionMessage({ message }: { message: Message | null }) {
  if (!message) return null;
  return (
    <p
      role={message.ok ? "status" : "alert"}
      className={`rounded-md p-2 text-sm ${message.ok ? "bg-green-50 text-green-900" : "bg-red-50 text-red-900"}`}
    >
      {message.text}
    </p>
  );
}

export function DeliveryStatusBadge({ status }: { status: DeliveryItem["status"] }) {
  const { word, tone } = DELIVERY_WORDS[status];
  return <Badge tone={tone}>{word}</Badge>;
}

export function DeliveryList(props: {
  workspaceId: string;
  deliveries: ReadonlyArray<DeliveryItem>;
  canOperate: boolean;
  showRun?: boolean;
  /** Where to say what a redelivery did, when the list itself may go (a filter empties it). */
  onMessage?: (message: Message) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState<DeliveryItem | null>(null);
  const [localMessage, setLocalMessage] = useState<Message | null>(null);
  const setMessage = props.onMessage ?? setLocalMessage;
  const redeliver = useMutation(
    trpc.webhooks.redeliver.mutationOptions({
      onSuccess: async (result) => {
        setConfirming(null);
        setMessage({
          ok: true,
          text: `Redelivery scheduled: the report is pending again, next attempt ${formatUtc(result.nextAttemptAt)}.`,
        });
        // Path filters: they match the paged (infinite) deliveries query too.
        await queryClient.invalidateQueries(trpc.webhooks.deliveries.pathFilter());
        await queryClient.invalidateQueries(trpc.runs.get.pathFilter());
      },
      onError: (error) => {
        setConfirming(null);
        setMessage({ ok: false, text: errorMessage(error) });
      },
    }),
  );
  const nameOf = (d: DeliveryItem) => d.webhook.name;

  return (
    <div className="flex flex-col gap-3">
      <ActionMessage message={localMessage} />
      <ul aria-label="Deliveries" className="flex flex-col gap-3">
        {props.deliveries.map((d) => (
          <li
            key={d.id}
            data-delivery={d.id}
            className="rounded-lg border border-slate-200 bg-white p-3 text-sm"
          >
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium">{nameOf(d)}</span>
              <DeliveryStatusBadge status={d.status} />
              {d.event === "webhook.test" ? <Badge>Test report</Badge> : null}
              {d.event.startsWith("output.") ? <Badge>{d.event}</Badge> : null}
              {props.showRun && d.runId ? (
                <Link
                  href={runPagePath(props.workspaceId, d.runId)}
                  className="font-mono text-indigo-700 underline"
                >
                  {`run ${shortId(d.runId)}`}
                </Link>
              ) : null}
              <span className="text-slate-600">
                created <Timestamp value={d.createdAt} />
                {d.deliveredAt ? (
                  <>
                    , delivered <Timestamp value={d.deliveredAt} />
                  </>
                ) : null}
                {d.status === "PENDING" && d.nextAttemptAt ? (
                  <>
                    , next attempt <Timestamp value={d.nextAttemptAt} />
                  </>
                ) : null}
              </span>
              {props.canOperate && d.status === "FAILED" ? (
                <Button tone="secondary" className="ml-auto" onClick={() => setConfirming(d)}>
                  Redeliver
                </Button>
              ) : null}
            </div>
            {d.attempts.length === 0 ? (
              <p className="mt-2 text-slate-600">No attempt yet.</p>
            ) : (
              <ol aria-label={`Attempts of ${nameOf(d)}`} className="mt-2 flex flex-col gap-1">
                {d.attempts.map((a, i) => (
                  <li key={a.id} className="flex flex-wrap gap-2 text-xs text-slate-700">
                    <span className="font-medium">{`Attempt ${i + 1}`}</span>
                    <span>
                      <Timestamp value={a.createdAt} />
                    </span>
                    <span>{a.statusCode === null ? "no response" : `HTTP ${a.statusCode}`}</span>
                    <span>{formatDuration(a.durationMs)}</span>
                    {a.error ? <span className="text-red-800">{a.error}</span> : null}
                  </li>
                ))}
              </ol>
            )}
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={confirming !== null}
        title="Send this report again?"
        confirmLabel="Redeliver"
        pending={redeliver.isPending}
        onCancel={() => setConfirming(null)}
        onConfirm={() =>
          confirming &&
          redeliver.mutate({ workspaceId: props.workspaceId, deliveryId: confirming.id })
        }
      >
        The failed report to {confirming ? nameOf(confirming) : "the webhook"} starts its retry
        schedule again: the receiver may get it within a minute.
      </ConfirmDialog>
    </div>
  );
}

"use client";
// Every delivery, newest first, filtered by webhook and status, paged by cursor.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { PagedList } from "../ui/paged-list.tsx";
import { ActionMessage, DeliveryList, type DeliveryItem, type Message } from "./delivery-list.tsx";

type Status = DeliveryItem["status"];

export function DeliveriesPanel(props: {
  workspaceId: string;
  webhooks: ReadonlyArray<{ id: string; name: string }>;
  canOperate: boolean;
}) {
  const trpc = useTRPC();
  const id = useId();
  const [webhookId, setWebhookId] = useState("");
  const [status, setStatus] = useState<Status | "">("");
  const [message, setMessage] = useState<Message | null>(null);
  const deliveries = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      {
        workspaceId: props.workspaceId,
        limit: 20,
        ...(webhookId ? { webhookId } : {}),
        ...(status ? { status } : {}),
      },
      { getNextPageParam: (page) => page.nextCursor ?? undefined },
    ),
  );
  const items = deliveries.data?.pages.flatMap((p) => p.items) ?? [];
  const select = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";
  return (
    <section aria-labelledby="deliveries-heading" className="flex flex-col gap-3">
      <h2 id="deliveries-heading" className="text-base font-semibold text-slate-900">
        Deliveries
      </h2>
      <form
        aria-label="Filter deliveries"
        className="flex flex-wrap gap-3"
        onSubmit={(e) => e.preventDefault()}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-webhook`} className="text-sm font-medium text-slate-800">
            Webhook
          </label>
          <select
            id={`${id}-webhook`}
            className={select}
            value={webhookId}
            onChange={(e) => setWebhookId(e.target.value)}
          >
            <option value="">Every webhook</option>
            {props.webhooks.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-status`} className="text-sm font-medium text-slate-800">
            Delivery status
          </label>
          <select
            id={`${id}-status`}
            className={select}
            value={status}
            onChange={(e) => setStatus(e.target.value as Status | "")}
          >
            <option value="">Any status</option>
            <option value="PENDING">Pending</option>
            <option value="DELIVERED">Delivered</option>
            <option value="FAILED">Failed</option>
          </select>
        </div>
      </form>
      <ActionMessage message={message} />
      <PagedList
        query={deliveries}
        count={items.length}
        loading="Loading deliveries…"
        errorTitle="The deliveries could not be loaded"
        empty={{
          title: "No deliveries",
          message:
            webhookId || status
              ? "No delivery matches these filters."
              : "A report is sent to each matching webhook when a run ends.",
        }}
        moreLabel="Load more deliveries"
      >
        <DeliveryList
          workspaceId={props.workspaceId}
          deliveries={items}
          canOperate={props.canOperate}
          onMessage={setMessage}
          showRun
        />
      </PagedList>
    </section>
  );
}

"use client";
// Every delivery, newest first, filtered by webhook and status, paged by cursor.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { FilterSelect } from "../ui/filter-controls.tsx";
import { PagedList } from "../ui/paged-list.tsx";
import { ActionMessage, DeliveryList, type DeliveryItem, type Message } from "./delivery-list.tsx";

type Status = DeliveryItem["status"];
const DELIVERY_STATUSES: ReadonlyArray<{ value: Status; label: string }> = [
  { value: "PENDING", label: "Pending" },
  { value: "DELIVERED", label: "Delivered" },
  { value: "FAILED", label: "Failed" },
];

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
        <FilterSelect
          id={`${id}-webhook`}
          label="Webhook"
          anyLabel="Every webhook"
          options={props.webhooks.map((w) => ({ value: w.id, label: w.name }))}
          value={webhookId}
          onChange={setWebhookId}
        />
        <FilterSelect
          id={`${id}-status`}
          label="Delivery status"
          anyLabel="Any status"
          options={DELIVERY_STATUSES}
          value={status}
          onChange={(value) => setStatus(value as Status | "")}
        />
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

"use client";
// Every delivery, newest first, filtered by webhook and status (in the URL: a filtered view can
// be linked and reloaded), paged by cursor.
import { useInfiniteQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { FilterSelect } from "../ui/filter-controls.tsx";
import { PagedList } from "../ui/paged-list.tsx";
import { useUrlFilters } from "../ui/use-url-filters.ts";
import {
  DELIVERY_STATUSES,
  deliveriesInput,
  nextDeliveriesCursor,
  parseDeliveryFilters,
  type DeliveryStatus,
} from "./deliveries-query.ts";
import { ActionMessage, DeliveryList, type Message } from "./delivery-list.tsx";

const POLL_MS = 3_000;

export function DeliveriesPanel(props: {
  workspaceId: string;
  webhooks: ReadonlyArray<{ id: string; name: string }>;
  canOperate: boolean;
}) {
  const trpc = useTRPC();
  const id = useId();
  const [filters, setFilters] = useUrlFilters(parseDeliveryFilters);
  const [message, setMessage] = useState<Message | null>(null);
  const deliveries = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(deliveriesInput(props.workspaceId, filters), {
      getNextPageParam: nextDeliveriesCursor,
      // Polls while a delivery is pending or retrying, so its outcome appears without a reload.
      refetchInterval: (query) =>
        query.state.data?.pages.some((p) => p.items.some((d) => d.status === "PENDING"))
          ? POLL_MS
          : false,
    }),
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
          value={filters.webhookId}
          onChange={(webhookId) => setFilters({ ...filters, webhookId })}
        />
        <FilterSelect
          id={`${id}-status`}
          label="Delivery status"
          anyLabel="Any status"
          options={DELIVERY_STATUSES}
          value={filters.status}
          onChange={(status) => setFilters({ ...filters, status: status as DeliveryStatus | "" })}
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
            filters.webhookId || filters.status
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

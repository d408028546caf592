// The deliveries list's filters (webhook and status) as URL search params and as the list
// query's input, shared by the webhooks page (server prefetch) and the list (client), so both
// ask with the same key.
import type { AppRouter } from "@secondshift/api";
import type { inferRouterInputs } from "@trpc/server";
import { readFilters, type ParamReader } from "../ui/url-filters.ts";

type DeliveriesInput = inferRouterInputs<AppRouter>["webhooks"]["deliveries"];
export type DeliveryStatus = NonNullable<DeliveriesInput["status"]>;

export const DELIVERY_STATUSES: ReadonlyArray<{ value: DeliveryStatus; label: string }> = [
  { value: "PENDING", label: "Pending" },
  { value: "DELIVERED", label: "Delivered" },
  { value: "FAILED", label: "Failed" },
];

export type DeliveryFilters = {
  webhookId: string;
  status: "" | DeliveryStatus;
};

export const NO_DELIVERY_FILTERS: DeliveryFilters = { webhookId: "", status: "" };

function isDeliveryStatus(value: string): value is DeliveryStatus {
  return DELIVERY_STATUSES.some((s) => s.value === value);
}

/** The filters the URL names; an unknown status (a stale link) is left out. */
export function parseDeliveryFilters(params: ParamReader): DeliveryFilters {
  const raw = readFilters(params, { webhookId: "", status: "" });
  return { webhookId: raw.webhookId, status: isDeliveryStatus(raw.status) ? raw.status : "" };
}

export function deliveriesInput(
  workspaceId: string,
  filters: DeliveryFilters,
): Omit<DeliveriesInput, "cursor"> {
  return {
    workspaceId,
    limit: 20,
    ...(filters.webhookId ? { webhookId: filters.webhookId } : {}),
    ...(filters.status ? { status: filters.status } : {}),
  };
}

export const nextDeliveriesCursor = (page: { nextCursor: string | null }) =>
  page.nextCursor ?? undefined;

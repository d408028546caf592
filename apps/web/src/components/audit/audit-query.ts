// The audit log's filters, as the list query's input and as the export link's query string.
// The API filters by every one of them, so the list shows each page as it comes.
import type { AppRouter } from "@secondshift/api";
import type { inferRouterInputs } from "@trpc/server";
import { readFilters, type ParamReader } from "../ui/url-filters.ts";
import { dayEnd, dayStart } from "../ui/utc-day.ts";

export type AuditFilters = {
  actorId: string;
  action: string;
  connectionId: string;
  toolName: string;
  since: string;
  until: string;
};

export const NO_AUDIT_FILTERS: AuditFilters = {
  actorId: "",
  action: "",
  connectionId: "",
  toolName: "",
  since: "",
  until: "",
};

/** The filters the page's URL names (the same on the server's prefetch and in the list). */
export function parseAuditFilters(params: ParamReader): AuditFilters {
  return readFilters(params, NO_AUDIT_FILTERS);
}

export type AuditListInput = Omit<inferRouterInputs<AppRouter>["audit"]["list"], "cursor">;

function present(filters: AuditFilters) {
  return {
    ...(filters.actorId ? { actorId: filters.actorId } : {}),
    ...(filters.action.trim() ? { action: filters.action.trim() } : {}),
    ...(filters.connectionId ? { connectionId: filters.connectionId } : {}),
    ...(filters.toolName.trim() ? { toolName: filters.toolName.trim() } : {}),
  };
}

/** The day bounds that are whole days (a half-typed one filters nothing). */
function days(filters: AuditFilters) {
  const since = dayStart(filters.since);
  const until = dayEnd(filters.until);
  return { ...(since ? { since } : {}), ...(until ? { until } : {}) };
}

export function auditListInput(workspaceId: string, filters: AuditFilters): AuditListInput {
  return {
    workspaceId,
    limit: 50,
    ...present(filters),
    ...days(filters),
  };
}

/** GET /api/audit/export with the same filters (dates as ISO times). */
export function auditExportHref(
  workspaceId: string,
  format: "ndjson" | "csv",
  filters: AuditFilters,
): string {
  const query = new URLSearchParams({ workspaceId, format, ...present(filters) });
  const since = dayStart(filters.since);
  const until = dayEnd(filters.until);
  if (since) query.set("since", since.toISOString());
  if (until) query.set("until", until.toISOString());
  return `/api/audit/export?${query.toString()}`;
}

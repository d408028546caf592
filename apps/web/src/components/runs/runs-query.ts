// The runs list's query input, shared by the page (server prefetch) and the list (client), so
// both ask with the same key. The API filters by status, trigger, job and queued time (`since` /
// `until`), so every page it returns is already what the filters ask for. The filters are the
// page's URL search params (parseRunFilters), read the same way by both.
import type { AppRouter } from "@secondshift/api";
import { isRunStatus, RUN_TRIGGERS, type RunStatus } from "@secondshift/vocabulary";
import type { inferRouterInputs } from "@trpc/server";
import { readFilters, type ParamReader } from "../ui/url-filters.ts";
import { dayEnd, dayStart } from "../ui/utc-day.ts";

export type RunsListInput = Omit<inferRouterInputs<AppRouter>["runs"]["list"], "cursor">;

export type RunFilters = {
  /** A run status name from the status select ("" for any). */
  status: "" | RunStatus;
  /** How the run started ("" for any). */
  trigger: "" | RunTrigger;
  jobId: string;
  since: string;
  until: string;
};

export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export const isRunTrigger = (value: string): value is RunTrigger =>
  (RUN_TRIGGERS as readonly string[]).includes(value);

export const NO_FILTERS: RunFilters = { status: "", trigger: "", jobId: "", since: "", until: "" };

export const RUNS_PAGE_SIZE = 50;

/** The filters a URL names; a status or trigger it does not know (a stale link) is left out. */
export function parseRunFilters(params: ParamReader): RunFilters {
  const raw = readFilters(params, { status: "", trigger: "", jobId: "", since: "", until: "" });
  return {
    ...raw,
    status: isRunStatus(raw.status) ? raw.status : "",
    trigger: isRunTrigger(raw.trigger) ? raw.trigger : "",
  };
}

export function runsListInput(workspaceId: string, filters: RunFilters): RunsListInput {
  return {
    workspaceId,
    limit: RUNS_PAGE_SIZE,
    ...(filters.status ? { status: [filters.status] } : {}),
    ...(filters.trigger ? { trigger: filters.trigger } : {}),
    ...(filters.jobId ? { jobId: filters.jobId } : {}),
    ...withDays(filters),
  };
}

/** The day bounds that are whole days (a half-typed one filters nothing). */
function withDays(filters: { since: string; until: string }) {
  const since = dayStart(filters.since);
  const until = dayEnd(filters.until);
  return { ...(since ? { since } : {}), ...(until ? { until } : {}) };
}

export const nextRunsCursor = (page: { nextCursor: string | null }) => page.nextCursor ?? undefined;

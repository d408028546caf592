// The runs list's query input, shared by the page (server prefetch) and the list (client), so
// both ask with the same key. `since` / `until` (queued time) are sent for the API's date
// filter; until that filter is deployed everywhere the list also applies them to what it shows.
export interface RunFilters {
  status: string;
  jobId: string;
  since: string;
  until: string;
}

export const NO_FILTERS: RunFilters = { status: "", jobId: "", since: "", until: "" };

export const RUNS_PAGE_SIZE = 50;

/** Date inputs give "YYYY-MM-DD"; the day is read in UTC (as every time on these pages). */
export function dayStart(day: string): Date | undefined {
  return day ? new Date(`${day}T00:00:00.000Z`) : undefined;
}

export function dayEnd(day: string): Date | undefined {
  return day ? new Date(`${day}T23:59:59.999Z`) : undefined;
}

export function runsListInput(workspaceId: string, filters: RunFilters) {
  return {
    workspaceId,
    limit: RUNS_PAGE_SIZE,
    ...(filters.status ? { status: [filters.status] } : {}),
    ...(filters.jobId ? { jobId: filters.jobId } : {}),
    ...(filters.since ? { since: dayStart(filters.since) } : {}),
    ...(filters.until ? { until: dayEnd(filters.until) } : {}),
  };
}

export function withinDays(queuedAt: Date, filters: RunFilters): boolean {
  const since = dayStart(filters.since);
  const until = dayEnd(filters.until);
  return (!since || queuedAt >= since) && (!until || queuedAt <= until);
}

import type { AppRouter } from "@secondshift/api";
import type { inferRouterInputs } from "@trpc/server";

export type RunsListInput = Omit<inferRouterInputs<AppRouter>["runs"]["list"], "cursor">;

/** The typed input (status names are checked by the API; dates pass once it filters by them). */
export function typedRunsListInput(workspaceId: string, filters: RunFilters): RunsListInput {
  return runsListInput(workspaceId, filters) as unknown as RunsListInput;
}

export const nextRunsCursor = (page: { nextCursor: string | null }) => page.nextCursor ?? undefined;

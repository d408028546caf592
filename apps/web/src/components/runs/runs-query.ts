// The runs list's query input, shared by the page (server prefetch) and the list (client), so
// both ask with the same key. The API filters by status, job and queued time (`since` /
// `until`), so every page it returns is already what the filters ask for.
import type { AppRouter } from "@secondshift/api";
import type { inferRouterInputs } from "@trpc/server";

export type RunsListInput = Omit<inferRouterInputs<AppRouter>["runs"]["list"], "cursor">;
type RunStatus = NonNullable<RunsListInput["status"]>[number];

export interface RunFilters {
  /** A run status name from the status select ("" for any). */
  status: "" | RunStatus;
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

export function runsListInput(workspaceId: string, filters: RunFilters): RunsListInput {
  return {
    workspaceId,
    limit: RUNS_PAGE_SIZE,
    ...(filters.status ? { status: [filters.status] } : {}),
    ...(filters.jobId ? { jobId: filters.jobId } : {}),
    ...(filters.since ? { since: dayStart(filters.since) } : {}),
    ...(filters.until ? { until: dayEnd(filters.until) } : {}),
  };
}

export const nextRunsCursor = (page: { nextCursor: string | null }) => page.nextCursor ?? undefined;

// The runs list's query input, shared by the page (server prefetch) and the list (client), so
// both ask with the same key. The API filters by status, job and queued time (`since` /
// `until`), so every page it returns is already what the filters ask for.
import type { AppRouter } from "@secondshift/api";
import type { RunStatus } from "@secondshift/vocabulary";
import type { inferRouterInputs } from "@trpc/server";
import { dayEnd, dayStart } from "../ui/utc-day.ts";

export type RunsListInput = Omit<inferRouterInputs<AppRouter>["runs"]["list"], "cursor">;

export interface RunFilters {
  /** A run status name from the status select ("" for any). */
  status: "" | RunStatus;
  jobId: string;
  since: string;
  until: string;
}

export const NO_FILTERS: RunFilters = { status: "", jobId: "", since: "", until: "" };

export const RUNS_PAGE_SIZE = 50;

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

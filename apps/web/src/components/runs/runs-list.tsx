"use client";
// The runs list: newest first, filtered by status, trigger, job and queued day (in the URL: a filtered
// view can be linked and reloaded), paged by cursor ("Load more"). While a shown run is queued
// or running the list refreshes every few seconds, so
// status badges stay live; with none active it stops asking.
import {
  isActive,
  isRunStatus,
  RUN_STATUSES,
  RUN_TRIGGER_LABELS,
  RUN_TRIGGERS,
  runPagePath,
} from "@secondshift/vocabulary";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useId } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Button } from "../ui/button.tsx";
import { FilterDay, FilterSelect } from "../ui/filter-controls.tsx";
import { PagedList } from "../ui/paged-list.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { useUrlFilters } from "../ui/use-url-filters.ts";
import { Timestamp } from "../ui/timestamp.tsx";
import { formatDuration, formatTokens, shortId } from "./format.ts";
import {
  NO_FILTERS,
  nextRunsCursor,
  isRunTrigger,
  parseRunFilters,
  runsListInput,
  type RunFilters,
} from "./runs-query.ts";
import { statusWord } from "./status.ts";
import { RunStatusBadge } from "./status-badge.tsx";

export const ACTIVE_POLL_MS = 3_000;

export function RunsList({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlFilters(parseRunFilters);
  const jobs = useQuery(trpc.jobs.list.queryOptions({ workspaceId }));
  const runs = useInfiniteQuery({
    ...trpc.runs.list.infiniteQueryOptions(runsListInput(workspaceId, filters), {
      getNextPageParam: nextRunsCursor,
    }),
    refetchInterval: (query) =>
      query.state.data?.pages.some((p) => p.items.some((r) => isActive(r.status)))
        ? ACTIVE_POLL_MS
        : false,
  });
  const items = runs.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = Object.values(filters).some(Boolean);

  return (
    <div className="flex flex-col gap-4">
      <RunFiltersForm filters={filters} jobs={jobs.data ?? []} onChange={setFilters} />
      <PagedList
        query={runs}
        count={items.length}
        loading="Loading runs…"
        errorTitle="The runs could not be loaded"
        empty={
          filtered
            ? { title: "No run matches these filters", message: "Clear a filter to see more runs." }
            : {
                title: "No runs yet",
                message:
                  "Runs appear here when a job's schedule fires, an event matches one of its triggers, or someone presses Run now on a job.",
              }
        }
      >
        <Table caption="Runs">
          <thead>
            <tr>
              <Th>Run</Th>
              <Th>Job</Th>
              <Th>Status</Th>
              <Th>Trigger</Th>
              <Th>Queued</Th>
              <Th>Duration</Th>
              <Th>Tokens</Th>
            </tr>
          </thead>
          <tbody>
            {items.map((run) => (
              <Tr key={run.id}>
                <Td>
                  <Link
                    href={runPagePath(workspaceId, run.id)}
                    className="font-mono text-indigo-700 underline"
                    aria-label={`Run ${shortId(run.id)}, ${statusWord(run.status).word}`}
                  >
                    {shortId(run.id)}
                  </Link>
                </Td>
                <Td>{run.job.name}</Td>
                <Td>
                  <RunStatusBadge status={run.status} />
                </Td>
                <Td>{RUN_TRIGGER_LABELS[run.trigger]}</Td>
                <Td className="whitespace-nowrap">
                  <Timestamp value={run.queuedAt} />
                </Td>
                <Td>
                  {run.startedAt && run.finishedAt
                    ? formatDuration(run.finishedAt.getTime() - run.startedAt.getTime())
                    : "—"}
                </Td>
                <Td className="whitespace-nowrap">
                  {formatTokens(run.tokensUsed)} / {formatTokens(run.budgetTokens)}
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      </PagedList>
    </div>
  );
}

function RunFiltersForm(props: {
  filters: RunFilters;
  jobs: ReadonlyArray<{ id: string; name: string }>;
  onChange: (filters: RunFilters) => void;
}) {
  const id = useId();
  const set = (key: Exclude<keyof RunFilters, "status" | "trigger">) => (value: string) =>
    props.onChange({ ...props.filters, [key]: value });
  return (
    <form
      aria-label="Filter runs"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => e.preventDefault()}
    >
      <FilterSelect
        id={`${id}-status`}
        label="Status"
        anyLabel="Any status"
        options={RUN_STATUSES.map((s) => ({ value: s, label: statusWord(s).word }))}
        value={props.filters.status}
        onChange={(status) =>
          props.onChange({ ...props.filters, status: isRunStatus(status) ? status : "" })
        }
      />
      <FilterSelect
        id={`${id}-trigger`}
        label="Trigger"
        anyLabel="Any trigger"
        options={RUN_TRIGGERS.map((t) => ({ value: t, label: RUN_TRIGGER_LABELS[t] }))}
        value={props.filters.trigger}
        onChange={(trigger) =>
          props.onChange({ ...props.filters, trigger: isRunTrigger(trigger) ? trigger : "" })
        }
      />
      <FilterSelect
        id={`${id}-job`}
        label="Job"
        anyLabel="Any job"
        options={props.jobs.map((j) => ({ value: j.id, label: j.name }))}
        value={props.filters.jobId}
        onChange={set("jobId")}
      />
      <FilterDay
        id={`${id}-since`}
        label="Queued from"
        value={props.filters.since}
        onChange={set("since")}
      />
      <FilterDay
        id={`${id}-until`}
        label="Queued until"
        value={props.filters.until}
        onChange={set("until")}
      />
      {Object.values(props.filters).some(Boolean) ? (
        <Button tone="secondary" onClick={() => props.onChange(NO_FILTERS)}>
          Clear filters
        </Button>
      ) : null}
    </form>
  );
}

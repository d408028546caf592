"use client";
// The audit log: who did what, newest first, filtered by actor, action, connection, tool and
// day (in the URL: a filtered view can be linked and reloaded), paged by cursor; export links
// download the same filtered rows as NDJSON or CSV.
import { runPagePath } from "@secondshift/vocabulary";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useId } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { formatDuration, shortId } from "../runs/format.ts";
import { Timestamp } from "../ui/timestamp.tsx";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { FilterDay, FilterSelect, FilterText } from "../ui/filter-controls.tsx";
import { PagedList } from "../ui/paged-list.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { useUrlFilters } from "../ui/use-url-filters.ts";
import {
  auditExportHref,
  auditListInput,
  NO_AUDIT_FILTERS,
  parseAuditFilters,
  type AuditFilters,
} from "./audit-query.ts";
import type { AuditNames } from "./names.ts";
import { useAuditNames } from "./names.ts";

export function AuditLog({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlFilters(parseAuditFilters);
  const names = useAuditNames(workspaceId);
  const events = useInfiniteQuery(
    trpc.audit.list.infiniteQueryOptions(auditListInput(workspaceId, filters), {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
    }),
  );
  const items = events.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = Object.values(filters).some(Boolean);
  return (
    <div className="flex flex-col gap-4">
      <AuditFiltersForm filters={filters} names={names} onChange={setFilters} />
      <p className="flex flex-wrap gap-4 text-sm">
        <span className="text-slate-700">Export these entries:</span>
        <a
          className="text-indigo-700 underline"
          href={auditExportHref(workspaceId, "ndjson", filters)}
        >
          Download NDJSON
        </a>
        <a
          className="text-indigo-700 underline"
          href={auditExportHref(workspaceId, "csv", filters)}
        >
          Download CSV
        </a>
      </p>
      <PagedList
        query={events}
        count={items.length}
        loading="Loading the audit log…"
        errorTitle="The audit log could not be loaded"
        empty={
          filtered
            ? {
                title: "No entry matches these filters",
                message: "Clear a filter to see more entries.",
              }
            : {
                title: "Nothing recorded yet",
                message: "Changes to the workspace and every tool call of a run are recorded here.",
              }
        }
      >
        <Table caption="Audit log">
          <thead>
            <tr>
              <Th>When</Th>
              <Th>Actor</Th>
              <Th>Action</Th>
              <Th>Target</Th>
              <Th>Connection / tool</Th>
              <Th>Outcome</Th>
            </tr>
          </thead>
          <tbody>
            {items.map((e) => (
              <Tr key={e.id}>
                <Td className="whitespace-nowrap">
                  <Timestamp value={e.createdAt} />
                </Td>
                <Td>
                  <Actor
                    workspaceId={workspaceId}
                    type={e.actorType}
                    id={e.actorId}
                    names={names}
                  />
                </Td>
                <Td className="font-mono text-xs">{e.action}</Td>
                <Td>
                  <Target type={e.targetType} id={e.targetId} label={e.targetLabel} />
                </Td>
                <Td>
                  {e.connectionId ? (
                    <Named id={e.connectionId} label={connectionLabel(e, names)} />
                  ) : (
                    "—"
                  )}
                  {e.toolName ? <code className="ml-1 text-xs">{e.toolName}</code> : null}
                </Td>
                <Td>
                  {e.outcome ? (
                    <Badge
                      tone={e.outcome === "ok" || e.outcome === "success" ? "good" : "neutral"}
                    >
                      {e.outcome}
                    </Badge>
                  ) : (
                    "—"
                  )}
                  {e.durationMs !== null ? (
                    <span className="ml-1 text-xs text-slate-600">
                      {formatDuration(e.durationMs)}
                    </span>
                  ) : null}
                </Td>
              </Tr>
            ))}
          </tbody>
        </Table>
      </PagedList>
    </div>
  );
}

/** A name with its id on hover; the short id when there is no name (rows written before names). */
function Named(props: { id: string; label: string | null | undefined }) {
  // React text: the label is untrusted (job names come from repositories).
  return <span title={props.id}>{props.label ?? shortId(props.id)}</span>;
}

/** What the row refers to, named as it was when the row was written (renamed or deleted since). */
function Target(props: { type: string | null; id: string | null; label: string | null }) {
  if (!props.type) return <>—</>;
  if (!props.id) return <>{props.type}</>;
  return (
    <>
      {props.type} <Named id={props.id} label={props.label} />
    </>
  );
}

/**
 * A tool call has no target, and a connection's own rows target it: their label is the
 * connection's name as written. Other rows name it as it is called now.
 */
function connectionLabel(
  e: { targetType: string | null; targetLabel: string | null; connectionId: string | null },
  names: AuditNames,
): string | undefined {
  const written = e.targetType === null || e.targetType === "Connection" ? e.targetLabel : null;
  return written ?? (e.connectionId ? names.connections.get(e.connectionId) : undefined);
}

function Actor(props: { workspaceId: string; type: string; id: string; names: AuditNames }) {
  if (props.type === "RUN") {
    return (
      <Link href={runPagePath(props.workspaceId, props.id)} className="text-indigo-700 underline">
        {`Run ${shortId(props.id)}`}
      </Link>
    );
  }
  if (props.type === "SYSTEM") return <>System</>;
  return <>{props.names.members.get(props.id) ?? `User ${shortId(props.id)}`}</>;
}

function AuditFiltersForm(props: {
  filters: AuditFilters;
  names: AuditNames;
  onChange: (filters: AuditFilters) => void;
}) {
  const id = useId();
  const set = (key: keyof AuditFilters) => (value: string) =>
    props.onChange({ ...props.filters, [key]: value });
  const choices = (names: ReadonlyMap<string, string>) =>
    [...names].map(([value, label]) => ({ value, label }));
  return (
    <form
      aria-label="Filter the audit log"
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => e.preventDefault()}
    >
      <FilterSelect
        id={`${id}-actor`}
        label="Actor"
        anyLabel="Anyone"
        options={choices(props.names.members)}
        value={props.filters.actorId}
        onChange={set("actorId")}
      />
      <FilterText
        id={`${id}-action`}
        label="Action"
        placeholder="e.g. webhook.created"
        value={props.filters.action}
        onChange={set("action")}
      />
      <FilterSelect
        id={`${id}-connection`}
        label="Connection"
        anyLabel="Any connection"
        options={choices(props.names.connections)}
        value={props.filters.connectionId}
        onChange={set("connectionId")}
      />
      <FilterText
        id={`${id}-tool`}
        label="Tool"
        value={props.filters.toolName}
        onChange={set("toolName")}
      />
      <FilterDay
        id={`${id}-since`}
        label="From"
        value={props.filters.since}
        onChange={set("since")}
      />
      <FilterDay
        id={`${id}-until`}
        label="Until"
        value={props.filters.until}
        onChange={set("until")}
      />
      {Object.values(props.filters).some(Boolean) ? (
        <Button tone="secondary" onClick={() => props.onChange(NO_AUDIT_FILTERS)}>
          Clear filters
        </Button>
      ) : null}
    </form>
  );
}

// What changed since the last approval (issue #12, #13): the job's request today against what the
// owner last granted. A grant keeps its bindings (group → connection) and the tools it granted,
// not the request it answered, so the comparison is with what was approved: a tool requested now
// and not granted last time is "added", a tool granted last time and no longer requested is
// "removed". The last approval is the job's latest grant, revoked or not — a sync that changes the
// request leaves that grant behind (its requestHash no longer matches) without deleting it.
import type { ConnectionKind } from "@secondshift/db";
import type { DbClient } from "../context.ts";
import { groupKey, type RequestedToolGroup } from "../request.ts";
import { readDiscoveredTools } from "../tools.ts";
import { readBindings, type ReviewConnection } from "./review.ts";

export interface ChangedTool {
  name: string;
  /** From the connection's discovered tools; unknown counts as may-change-data. */
  mayChangeData: boolean;
}

export interface ReviewChange {
  key: string;
  kind: ConnectionKind;
  label: string | null;
  /** added: a group the last approval did not have; removed: one no longer requested. */
  change: "added" | "removed" | "changed" | "unchanged";
  previousConnection: ReviewConnection | null;
  connection: ReviewConnection | null;
  /** Both approvals name a connection and they differ. */
  bindingChanged: boolean;
  added: ChangedTool[];
  removed: ChangedTool[];
  unchanged: string[];
}

export interface LastApproval {
  id: string;
  approvedAt: Date;
  approvedById: string;
  revokedAt: Date | null;
  /** Approved for exactly today's request (and so the difference can only be narrowing). */
  sameRequest: boolean;
}

interface ConnectionRow {
  id: string;
  label: string;
  discoveredTools: unknown;
}

export async function lastGrant(db: DbClient, workspaceId: string, jobId: string) {
  return db.grant.findFirst({
    where: { workspaceId, jobId },
    orderBy: { approvedAt: "desc" },
    include: { tools: { select: { connectionId: true, toolName: true } } },
  });
}

type Grant = NonNullable<Awaited<ReturnType<typeof lastGrant>>>;

/** The connections a grant names, deleted ones included (their labels still explain the past). */
export async function grantConnections(db: DbClient, workspaceId: string, grant: Grant | null) {
  const ids = readBindings(grant?.bindings).flatMap((b) =>
    b.connectionId ? [b.connectionId] : [],
  );
  if (ids.length === 0) return [];
  const rows = await db.connection.findMany({
    where: { workspaceId, id: { in: ids } },
    select: { id: true, label: true, discoveredTools: true, deletedAt: true },
  });
  // Deleting renames the label to "<label> (removed <id>)" to free it; say it in words instead.
  return rows.map(({ deletedAt, ...c }) => ({
    ...c,
    label: deletedAt ? `${c.label.replace(` (removed ${c.id})`, "")} (deleted)` : c.label,
  }));
}

const marked = (names: readonly string[], connection: ConnectionRow | undefined): ChangedTool[] => {
  const discovered = readDiscoveredTools(connection?.discoveredTools);
  return names.map((name) => ({
    name,
    mayChangeData: discovered.get(name)?.mayChangeData ?? true,
  }));
};

const brief = (c: ConnectionRow | undefined | null): ReviewConnection | null =>
  c ? { id: c.id, label: c.label } : null;

/**
 * Per group of today's request (with the connection the review shows for it) and per group the
 * last approval bound that is no longer requested: the tools added, removed and unchanged.
 */
export function diffAgainstGrant(
  grant: Grant,
  current: ReadonlyArray<{ group: RequestedToolGroup; connection: ConnectionRow | null }>,
  previousConnections: readonly ConnectionRow[],
): ReviewChange[] {
  const bindings = readBindings(grant.bindings);
  // Grant tools are stored per connection: two groups bound to one connection share its list.
  const granted = (connectionId: string | null) =>
    grant.tools.filter((t) => t.connectionId === connectionId).map((t) => t.toolName);
  const changes: ReviewChange[] = current.map(({ group, connection }) => {
    const key = groupKey(group);
    const bound = bindings.find((b) => groupKey(b) === key);
    const before = previousConnections.find((c) => c.id === bound?.connectionId);
    const had = bound ? granted(bound.connectionId) : [];
    const added = group.tools.filter((t) => !had.includes(t));
    const removed = had.filter((t) => !group.tools.includes(t));
    const bindingChanged = !!before && !!connection && before.id !== connection.id;
    const same = added.length === 0 && removed.length === 0 && !bindingChanged;
    return {
      key,
      kind: group.kind,
      label: group.label,
      change: !bound ? "added" : same ? "unchanged" : "changed",
      previousConnection: brief(before),
      connection: brief(connection),
      bindingChanged,
      added: marked(added, connection ?? before),
      removed: marked(removed, before),
      unchanged: had.filter((t) => group.tools.includes(t)),
    };
  });
  const requested = new Set(current.map(({ group }) => groupKey(group)));
  for (const bound of bindings.filter((b) => !requested.has(groupKey(b)))) {
    const before = previousConnections.find((c) => c.id === bound.connectionId);
    changes.push({
      key: groupKey(bound),
      kind: bound.kind,
      label: bound.label,
      change: "removed",
      previousConnection: brief(before),
      connection: null,
      bindingChanged: false,
      added: [],
      removed: marked(granted(bound.connectionId), before),
      unchanged: [],
    });
  }
  return changes;
}

// What the owner sees before approving: each requested tool, the connection it would bind to,
// whether that connection allows it, and whether it may change data. Readable by every role;
// `canApprove` tells the UI whether to show the buttons (the check itself is in approveJob).
import type { ConnectionKind, JobStatus } from "@secondshift/db";
import { can } from "@secondshift/vocabulary";
import { notFound, requireRole, type ActorContext, type DbClient } from "../context.ts";
import { groupKey, storedRequest } from "../request.ts";
import { reviewOutputs, type ReviewOutputs } from "./grant-outputs.ts";
import { reviewTriggers, type ReviewTriggers } from "./review-triggers.ts";
import { readDiscoveredTools } from "../tools.ts";
import {
  diffAgainstGrant,
  grantConnections,
  lastGrant,
  type LastApproval,
  type ReviewChange,
} from "./review-diff.ts";

export interface ReviewConnection {
  id: string;
  label: string;
}

export interface ReviewTool {
  name: string;
  /** Unknown tools count as may-change-data. */
  mayChangeData: boolean;
  discovered: boolean;
  allowedOnConnection: boolean;
  /** In the job's current grant. */
  approved: boolean;
}

export interface ReviewGroup {
  key: string;
  kind: ConnectionKind;
  label: string | null;
  required: boolean;
  /** The current grant's binding, else the proposal (same label; or the only one of its kind). */
  connection: ReviewConnection | null;
  candidates: ReviewConnection[];
  tools: ReviewTool[];
}

export interface AccessReview {
  job: {
    id: string;
    key: string;
    name: string;
    status: JobStatus;
    requestHash: string;
    repositoryFullName: string;
  };
  grant: { id: string; approvedAt: Date; approvedById: string } | null;
  groups: ReviewGroup[];
  /** The job's latest grant, active or not: what "changes" compares with. */
  lastApproval: LastApproval | null;
  /** Per group, what changed since the last approval; empty when the job was never approved. */
  changes: ReviewChange[];
  /** Requested output kinds, the current grant's, and whether they can be granted here. */
  outputs: ReviewOutputs;
  /**
   * Requested triggers (`on:`) and whether events can reach this repository (GitHub only).
   * Part of the request: approving approves them. No event starts a run yet in this version.
   */
  triggers: ReviewTriggers;
  canApprove: boolean;
}

interface Binding {
  kind: ConnectionKind;
  label: string | null;
  connectionId: string | null;
}

export function readBindings(value: unknown): Binding[] {
  return Array.isArray(value) ? (value as Binding[]) : [];
}

/**
 * The connection preselected for a group the owner has not bound yet (C01): only when exactly one
 * connection of the group's kind exists. The repository's label never picks among several — a
 * committed config cannot choose a credential — and a label naming another connection preselects
 * nothing.
 */
export function proposeConnection<T extends { kind: ConnectionKind; label: string }>(
  group: { kind: ConnectionKind; label: string | null },
  connections: readonly T[],
): T | null {
  const ofKind = connections.filter((c) => c.kind === group.kind);
  const only = ofKind.length === 1 ? (ofKind[0] ?? null) : null;
  if (!only) return null;
  // GitHub and Sentry connections are per workspace; their labels carry no choice.
  const labelled = group.kind === "MCP" || group.kind === "HTTP";
  return labelled && group.label !== null && group.label !== only.label ? null : only;
}

export async function currentGrant(db: DbClient, workspaceId: string, jobId: string, hash: string) {
  return db.grant.findFirst({
    where: { workspaceId, jobId, revokedAt: null, requestHash: hash },
    orderBy: { approvedAt: "desc" },
    include: { tools: { select: { connectionId: true, toolName: true } } },
  });
}

export async function getAccessReview(
  ctx: ActorContext,
  input: { jobId: string },
): Promise<AccessReview> {
  const role = await requireRole(ctx, "read");
  const { db, workspaceId } = ctx;
  const job = await db.job.findFirst({
    where: { id: input.jobId, workspaceId },
    include: { repository: { select: { fullName: true } } },
  });
  if (!job) throw notFound("Job");
  const connections = await db.connection.findMany({
    where: { workspaceId, deletedAt: null },
    orderBy: { label: "asc" },
  });
  const grant = await currentGrant(db, workspaceId, job.id, job.requestHash);
  const bindings = readBindings(grant?.bindings);
  const approved = new Set((grant?.tools ?? []).map((t) => `${t.connectionId}\n${t.toolName}`));
  const request = storedRequest(job.requestedTools).map((group) => {
    const bound = bindings.find((b) => groupKey(b) === groupKey(group));
    const connection = bound
      ? (connections.find((c) => c.id === bound.connectionId) ?? null)
      : proposeConnection(group, connections);
    return { group, connection };
  });
  const last = await lastGrant(db, workspaceId, job.id);
  const changes = last
    ? diffAgainstGrant(last, request, await grantConnections(db, workspaceId, last))
    : [];

  const groups = request.map(({ group, connection }): ReviewGroup => {
    const key = groupKey(group);
    const discovered = readDiscoveredTools(connection?.discoveredTools);
    return {
      key,
      kind: group.kind,
      label: group.label,
      required: group.required,
      connection: connection ? { id: connection.id, label: connection.label } : null,
      candidates: connections
        .filter((c) => c.kind === group.kind)
        .map((c) => ({ id: c.id, label: c.label })),
      tools: group.tools.map((name) => ({
        name,
        mayChangeData: discovered.get(name)?.mayChangeData ?? true,
        discovered: discovered.has(name),
        allowedOnConnection: connection?.allowedTools.includes(name) ?? false,
        approved: connection ? approved.has(`${connection.id}\n${name}`) : false,
      })),
    };
  });
  return {
    job: {
      id: job.id,
      key: job.key,
      name: job.name,
      status: job.status,
      requestHash: job.requestHash,
      repositoryFullName: job.repository.fullName,
    },
    grant: grant
      ? { id: grant.id, approvedAt: grant.approvedAt, approvedById: grant.approvedById }
      : null,
    groups,
    lastApproval: last
      ? {
          id: last.id,
          approvedAt: last.approvedAt,
          approvedById: last.approvedById,
          revokedAt: last.revokedAt,
          sameRequest: last.requestHash === job.requestHash,
        }
      : null,
    changes,
    outputs: await reviewOutputs(ctx, job, grant?.outputs),
    triggers: await reviewTriggers(db, job),
    canApprove: can(role, "own"),
  };
}

// The owner's decisions on a job's request. Only OWNER decides (C02); each decision is one
// transaction with its audit row, so there is never a grant without its record.
import { randomUUID } from "node:crypto";
import type { ConnectionKind, Prisma } from "@secondshift/db";
import type { GrantedOutputs } from "@secondshift/vocabulary";
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, type ActorContext, type DbClient } from "../context.ts";
import { groupKey, storedRequest, type RequestedToolGroup } from "../request.ts";
import { readRequestedOutputs } from "../outputs/stored.ts";
import { decideOutputs, outputsAvailability, type OutputsChoice } from "./grant-outputs.ts";
import { proposeConnection } from "./review.ts";

export interface ApproveJobInput {
  jobId: string;
  /** The requestHash the owner reviewed: approving refuses if the request changed meanwhile. */
  requestHash: string;
  /** Owner's choice per group key (`MCP:docs`, `GITHUB:`): a connection of that kind. */
  bindings?: Record<string, string>;
  /** Owner's narrowing per group key; default: every requested tool the connection allows. */
  tools?: Record<string, string[]>;
  /** Output kinds granted (others are not), each "hold" unless chosen; limits ≤ requested. */
  outputs?: OutputsChoice;
}

export interface ApproveJobResult {
  grantId: string;
  groups: Array<{
    key: string;
    connectionId: string | null;
    tools: string[];
    missing: string[];
    required: boolean;
  }>;
}

async function revokeActiveGrants(
  db: DbClient,
  workspaceId: string,
  jobId: string,
  userId: string,
): Promise<void> {
  await db.grant.updateMany({
    where: { workspaceId, jobId, revokedAt: null },
    data: { revokedAt: new Date(), revokedById: userId },
  });
}

type Decided = ApproveJobResult["groups"][number] & { group: RequestedToolGroup };

/** The job as reviewed: still in the repository, same request, only groups it requests. */
function checkReviewed(
  job: { status: string; requestHash: string; requestedTools: unknown },
  input: ApproveJobInput,
): RequestedToolGroup[] {
  if (job.status === "REMOVED") {
    throw new AppError("CONFLICT", "This job is no longer in the repository's .secondshift.yaml.", {
      reason: "JOB_REMOVED",
    });
  }
  if (job.requestHash !== input.requestHash) {
    throw new AppError(
      "CONFLICT",
      "The job's tool request changed since you reviewed it; review it again before approving.",
      { reason: "REQUEST_CHANGED" },
    );
  }
  const groups = storedRequest(job.requestedTools);
  const keys = new Set(groups.map(groupKey));
  for (const key of [...Object.keys(input.bindings ?? {}), ...Object.keys(input.tools ?? {})]) {
    if (!keys.has(key))
      throw new AppError("BAD_REQUEST", `The job requests no tool group "${key}".`, {
        reason: "UNKNOWN_GROUP",
      });
  }
  return groups;
}

/**
 * Per group: the connection the owner chose, or the preselected one (only when it is the only
 * connection of its kind, C01), and the tools granted. A group left unbound grants nothing.
 */
function decideGroup(
  group: RequestedToolGroup,
  connections: ReadonlyArray<{
    id: string;
    kind: ConnectionKind;
    label: string;
    allowedTools: string[];
  }>,
  input: ApproveJobInput,
): Decided {
  const key = groupKey(group);
  const chosenId = input.bindings?.[key];
  const connection =
    chosenId === undefined
      ? proposeConnection(group, connections)
      : connections.find((c) => c.id === chosenId);
  if (chosenId !== undefined && !connection) throw notFound("Connection");
  if (connection && connection.kind !== group.kind) {
    throw new AppError(
      "BAD_REQUEST",
      `Group ${key} needs a ${group.kind} connection, not ${connection.kind}.`,
      { reason: "CONNECTION_KIND_MISMATCH" },
    );
  }
  const narrowed = input.tools?.[key];
  // Only tools the connection allows can be approved; the owner may approve fewer.
  const tools = group.tools.filter(
    (t) => connection?.allowedTools.includes(t) && (narrowed === undefined || narrowed.includes(t)),
  );
  const missing = group.tools.filter((t) => !tools.includes(t));
  return {
    key,
    group,
    connectionId: connection?.id ?? null,
    tools,
    missing,
    required: group.required,
  };
}

async function writeGrant(
  tx: DbClient,
  ids: { workspaceId: string; jobId: string; grantId: string; requestHash: string; userId: string },
  decided: readonly Decided[],
  outputs: GrantedOutputs,
): Promise<void> {
  const { workspaceId, jobId, grantId } = ids;
  await revokeActiveGrants(tx, workspaceId, jobId, ids.userId);
  await tx.grant.create({
    data: {
      id: grantId,
      workspaceId,
      jobId,
      requestHash: ids.requestHash,
      approvedById: ids.userId,
      outputs: outputs as Prisma.InputJsonValue,
      bindings: decided.map((d) => ({
        kind: d.group.kind,
        label: d.group.label,
        connectionId: d.connectionId,
      })),
    },
  });
  const rows = new Map<string, { connectionId: string; toolName: string }>();
  for (const d of decided) {
    if (d.connectionId)
      for (const toolName of d.tools)
        rows.set(`${d.connectionId}\n${toolName}`, { connectionId: d.connectionId, toolName });
  }
  if (rows.size > 0) {
    await tx.grantTool.createMany({
      data: [...rows.values()].map((r) => ({ ...r, workspaceId, grantId })),
    });
  }
}

/**
 * One transaction: the job row is locked and its request hash compared with the one the owner
 * reviewed before anything is written, so a sync landing meanwhile either commits first (and the
 * approval is refused) or waits for the approval (and then puts the job back to needs-approval).
 */
export async function approveJob(
  ctx: ActorContext,
  input: ApproveJobInput,
): Promise<ApproveJobResult> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  const grantId = randomUUID();
  const decided = await db.$transaction(async (tx) => {
    const job = await lockJob(tx, workspaceId, input.jobId);
    const groups = checkReviewed(job, input);
    const connections = await tx.connection.findMany({ where: { workspaceId, deletedAt: null } });
    const decided = groups.map((group) => decideGroup(group, connections, input));
    const availability = await outputsAvailability(tx, workspaceId, job.repositoryId);
    const outputs = decideOutputs(
      readRequestedOutputs(job.requestedOutputs),
      input.outputs,
      availability,
    );
    const ids = { workspaceId, jobId: job.id, grantId, requestHash: job.requestHash };
    await writeGrant(tx, { ...ids, userId: actor.userId }, decided, outputs);
    await tx.job.update({ where: { id: job.id }, data: { status: "APPROVED" } });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "job.approved",
      targetType: "Job",
      targetId: job.id,
      targetLabel: job.name,
    });
    return decided;
  });
  await syncSchedulesNow(ctx);
  return {
    grantId,
    groups: decided.map(({ key, connectionId, tools, missing, required }) => ({
      key,
      connectionId,
      tools,
      missing,
      required,
    })),
  };
}

/** The job row, locked until the transaction ends (a concurrent sync waits, or went first). */
async function lockJob(tx: DbClient, workspaceId: string, jobId: string) {
  const locked = await tx.$queryRaw<Array<{ id: string }>>`
    SELECT "id" FROM "Job" WHERE "id" = ${jobId} AND "workspaceId" = ${workspaceId} FOR UPDATE`;
  if (locked.length === 0) throw notFound("Job");
  return tx.job.findFirstOrThrow({ where: { id: jobId, workspaceId } });
}

export async function rejectJob(ctx: ActorContext, input: { jobId: string }): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  const job = await db.job.findFirst({
    where: { id: input.jobId, workspaceId },
    select: { id: true, name: true },
  });
  if (!job) throw notFound("Job");
  await db.$transaction(async (tx) => {
    await revokeActiveGrants(tx, workspaceId, job.id, actor.userId);
    await tx.job.update({ where: { id: job.id }, data: { status: "REJECTED" } });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "job.rejected",
      targetType: "Job",
      targetId: job.id,
      targetLabel: job.name,
    });
  });
  await syncSchedulesNow(ctx);
}

/**
 * An approved job's schedule starts now, a rejected or revoked one's stops now (the workers also
 * reconcile every minute; a process without the queues, such as a test, leaves it to them).
 */
async function syncSchedulesNow(ctx: ActorContext): Promise<void> {
  await ctx.services?.syncSchedules(ctx.workspaceId);
}

/** Takes effect at the running job's next tool call (the broker re-reads the grant), C06. */
export async function revokeGrant(ctx: ActorContext, input: { grantId: string }): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  const grant = await db.grant.findFirst({
    where: { id: input.grantId, workspaceId },
    include: { job: { select: { id: true, status: true, name: true } } },
  });
  if (!grant) throw notFound("Grant");
  if (grant.revokedAt) return;
  await db.$transaction(async (tx) => {
    await tx.grant.update({
      where: { id: grant.id },
      data: { revokedAt: new Date(), revokedById: actor.userId },
    });
    if (grant.job.status === "APPROVED")
      await tx.job.update({ where: { id: grant.job.id }, data: { status: "NEEDS_APPROVAL" } });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "grant.revoked",
      targetType: "Grant",
      targetId: grant.id,
      // A grant is named by its job.
      targetLabel: grant.job.name,
    });
  });
  await syncSchedulesNow(ctx);
}

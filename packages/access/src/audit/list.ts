// The audit log, newest first, for every member (viewers read runs and audit).
import type { ActorType } from "@secondshift/db";
import { requireRole, type ActorContext } from "../context.ts";
import { pageQuery, toPage, type Page, type PageInput } from "../paging.ts";

export interface AuditEventView {
  id: string;
  actorType: ActorType;
  actorId: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  toolName: string | null;
  connectionId: string | null;
  outcome: string | null;
  durationMs: number | null;
  createdAt: Date;
}

export interface AuditFilters {
  targetId?: string;
  targetType?: string;
  action?: string;
  actorId?: string;
  /** Inclusive lower bound on createdAt. */
  since?: Date;
  /** Exclusive upper bound on createdAt. */
  until?: Date;
}

function filterWhere(input: AuditFilters) {
  return {
    ...(input.targetId === undefined ? {} : { targetId: input.targetId }),
    ...(input.targetType === undefined ? {} : { targetType: input.targetType }),
    ...(input.action === undefined ? {} : { action: input.action }),
    ...(input.actorId === undefined ? {} : { actorId: input.actorId }),
    ...(input.since === undefined && input.until === undefined
      ? {}
      : { createdAt: { gte: input.since, lt: input.until } }),
  };
}

export async function listAuditEvents(
  ctx: ActorContext,
  input: PageInput & AuditFilters,
): Promise<Page<AuditEventView>> {
  await requireRole(ctx, "read");
  const page = pageQuery(input);
  const rows = await ctx.db.auditEvent.findMany({
    ...page,
    where: {
      ...page.where,
      workspaceId: ctx.workspaceId,
      ...filterWhere(input),
    },
    omit: { workspaceId: true },
  });
  return toPage(rows, input);
}

// The audit log, newest first, for every member (viewers read runs and audit): a page for the
// screen, or every matching row in pages for an export (NDJSON / CSV, streamed by the API).
import type { ActorType } from "@secondshift/db";
import { requireRole, type ActorContext } from "../context.ts";
import { recordAudit } from "./record.ts";
import { pageQuery, toPage, type Page, type PageInput } from "../paging.ts";

export interface AuditEventView {
  id: string;
  actorType: ActorType;
  actorId: string;
  action: string;
  targetType: string | null;
  targetId: string | null;
  /** The target's name when the row was written (untrusted text); null for older rows. */
  targetLabel: string | null;
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
  connectionId?: string;
  toolName?: string;
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
    ...(input.connectionId === undefined ? {} : { connectionId: input.connectionId }),
    ...(input.toolName === undefined ? {} : { toolName: input.toolName }),
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

/** Rows per database round trip of an export. */
export const EXPORT_PAGE_ROWS = 1_000;

/**
 * Every event matching the filters, newest first, one page of rows at a time (a cursor on id,
 * so memory stays flat however long the log is). Authorized and audited before the first row:
 * a refusal happens before the caller has sent anything. Every member may export: by C29 the
 * log holds who / what / which tool and connection, never arguments, credentials or responses,
 * and every member already reads these same rows through listAuditEvents.
 */
export async function exportAuditEvents(
  ctx: ActorContext,
  input: AuditFilters,
): Promise<AsyncIterable<AuditEventView[]>> {
  await requireRole(ctx, "read");
  const workspace = await ctx.db.workspace.findUnique({
    where: { id: ctx.workspaceId },
    select: { name: true },
  });
  await recordAudit(ctx.db, {
    workspaceId: ctx.workspaceId,
    actorType: "USER",
    actorId: ctx.actor.userId,
    action: "audit.exported",
    targetType: "Workspace",
    targetId: ctx.workspaceId,
    targetLabel: workspace?.name,
  });
  const { db, workspaceId } = ctx;
  // Ids are UUID v7: rows written while the export runs are above the first page, never below
  // the cursor, so the export is the log as it stood when it began.
  return (async function* pages() {
    let cursor: string | undefined;
    for (;;) {
      const rows = await db.auditEvent.findMany({
        where: {
          workspaceId,
          ...filterWhere(input),
          ...(cursor === undefined ? {} : { id: { lt: cursor } }),
        },
        orderBy: { id: "desc" },
        take: EXPORT_PAGE_ROWS,
        omit: { workspaceId: true },
      });
      if (rows.length > 0) yield rows;
      if (rows.length < EXPORT_PAGE_ROWS) return;
      cursor = rows.at(-1)!.id;
    }
  })();
}

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

export async function listAuditEvents(
  ctx: ActorContext,
  input: PageInput & { targetId?: string },
): Promise<Page<AuditEventView>> {
  await requireRole(ctx, "read");
  const page = pageQuery(input);
  const rows = await ctx.db.auditEvent.findMany({
    ...page,
    where: {
      ...page.where,
      workspaceId: ctx.workspaceId,
      ...(input.targetId === undefined ? {} : { targetId: input.targetId }),
    },
    omit: { workspaceId: true },
  });
  return toPage(rows, input);
}

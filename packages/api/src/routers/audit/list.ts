// Every member: the audit log newest first, filtered by target, action, actor, connection, tool or
// time, paged. The same rows as a file: GET /api/audit/export (audit-export.ts).
import { listAuditEvents } from "@secondshift/domain";
import { z } from "zod";
import { actorType, id, page, pageInput } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

const auditEvent = z.object({
  id: z.string(),
  actorType,
  actorId: z.string(),
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  targetLabel: z.string().nullable(),
  toolName: z.string().nullable(),
  connectionId: z.string().nullable(),
  outcome: z.string().nullable(),
  durationMs: z.number().nullable(),
  createdAt: z.date(),
});

export const list = workspaceProcedure
  .input(
    z.object({
      ...pageInput,
      targetId: id.optional(),
      targetType: z.string().min(1).max(50).optional(),
      action: z.string().min(1).max(64).optional(),
      actorId: z.string().min(1).max(64).optional(),
      connectionId: id.optional(),
      toolName: z.string().min(1).max(200).optional(),
      since: z.date().optional(),
      until: z.date().optional(),
    }),
  )
  .output(page(auditEvent))
  .query(({ ctx, input }) =>
    listAuditEvents(ctx.workspace, {
      cursor: input.cursor,
      limit: input.limit,
      targetId: input.targetId,
      targetType: input.targetType,
      action: input.action,
      actorId: input.actorId,
      connectionId: input.connectionId,
      toolName: input.toolName,
      since: input.since,
      until: input.until,
    }),
  );

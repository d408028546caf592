// Every member: the audit log newest first, optionally about one target, with cursor paging.
import { listAuditEvents } from "@secondshift/access";
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
  toolName: z.string().nullable(),
  connectionId: z.string().nullable(),
  outcome: z.string().nullable(),
  durationMs: z.number().nullable(),
  createdAt: z.date(),
});

export const list = workspaceProcedure
  .input(z.object({ ...pageInput, targetId: id.optional() }))
  .output(page(auditEvent))
  .query(({ ctx, input }) =>
    listAuditEvents(ctx.workspace, {
      cursor: input.cursor,
      limit: input.limit,
      targetId: input.targetId,
    }),
  );

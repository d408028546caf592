// Every member: one connection — its tools with data-changing marks and the owner's checklist,
// whether it must be reconnected, and the jobs that use it. Never a credential.
import { getConnection } from "@secondshift/domain";
import { z } from "zod";
import { connectionAuth, connectionKind, id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { affectedJob, appWebhook, connectionTool, reconnect, withWebhookUrl } from "./fields.ts";

export const get = workspaceProcedure
  .input(z.object({ connectionId: id }))
  .output(
    z.object({
      id: z.string(),
      kind: connectionKind,
      label: z.string(),
      endpoint: z.string(),
      authType: connectionAuth,
      authHeaderName: z.string().nullable(),
      settings: z.record(z.string(), z.unknown()),
      allowedTools: z.array(z.string()),
      tools: z.array(connectionTool),
      reconnect,
      addressProblem: z.string().nullable(),
      webhook: appWebhook,
      jobs: z.array(affectedJob),
      createdAt: z.date(),
      updatedAt: z.date(),
    }),
  )
  .query(async ({ ctx, input }) =>
    withWebhookUrl(
      await getConnection(ctx.workspace, { connectionId: input.connectionId }),
      ctx.deps.publicUrl,
    ),
  );

// Every member: connections with their tools, data-changing marks and whether the owner must
// reconnect; never a credential.
import { listConnections } from "@secondshift/domain";
import { z } from "zod";
import { connectionAuth, connectionKind } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { appWebhook, reconnect, withWebhookUrl } from "./fields.ts";

export const connectionSummary = z.object({
  id: z.string(),
  kind: connectionKind,
  label: z.string(),
  endpoint: z.string(),
  authType: connectionAuth,
  allowedTools: z.array(z.string()),
  discoveredTools: z.array(z.object({ name: z.string(), mayChangeData: z.boolean() })),
  reconnect,
  addressProblem: z.string().nullable(),
  webhook: appWebhook,
  createdAt: z.date(),
});

export const list = workspaceProcedure
  .output(z.array(connectionSummary))
  .query(async ({ ctx }) =>
    (await listConnections(ctx.workspace, {})).map((c) => withWebhookUrl(c, ctx.deps.publicUrl)),
  );

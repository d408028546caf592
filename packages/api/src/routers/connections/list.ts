// Every member: connections with their tools, data-changing marks and whether the owner must
// reconnect; never a credential.
import { listConnections } from "@secondshift/domain";
import { z } from "zod";
import { connectionAuth, connectionKind } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { reconnect } from "./fields.ts";

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
  createdAt: z.date(),
});

export const list = workspaceProcedure
  .output(z.array(connectionSummary))
  .query(({ ctx }) => listConnections(ctx.workspace, {}));

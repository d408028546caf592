// Every member: connections with their tools and data-changing marks; never a credential.
import { listConnections } from "@secondshift/access";
import { z } from "zod";
import { connectionAuth, connectionKind, noInput } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const connectionSummary = z.object({
  id: z.string(),
  kind: connectionKind,
  label: z.string(),
  endpoint: z.string(),
  authType: connectionAuth,
  allowedTools: z.array(z.string()),
  discoveredTools: z.array(z.object({ name: z.string(), mayChangeData: z.boolean() })),
  createdAt: z.date(),
});

export const list = workspaceProcedure
  .input(noInput)
  .output(z.array(connectionSummary))
  .query(({ ctx }) => listConnections(ctx.workspace, {}));

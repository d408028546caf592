// Owner: add a connection. The credential is write-only: encrypted bound to the new row (P06)
// and never returned by any procedure (C23).
import { createConnection } from "@secondshift/domain";
import { z } from "zod";
import { connectionAuth, connectionKind } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const create = workspaceProcedure
  .input(
    z.object({
      kind: connectionKind,
      label: z.string().trim().min(1).max(100),
      endpoint: z.string().max(2000),
      authType: connectionAuth,
      authHeaderName: z.string().min(1).max(100).nullable().optional(),
      credential: z.string().min(1).max(20_000).nullable().optional(),
      settings: z.record(z.string(), z.unknown()).optional(),
    }),
  )
  .output(
    z.object({
      id: z.string(),
      // The first discovery (MCP and HTTP, not OAuth): how many tools, or why none; null: none tried.
      discovery: z
        .union([z.object({ tools: z.number() }), z.object({ error: z.string() })])
        .nullable(),
    }),
  )
  .mutation(({ ctx, input }) =>
    createConnection(ctx.workspace, {
      kind: input.kind,
      label: input.label,
      endpoint: input.endpoint,
      authType: input.authType,
      authHeaderName: input.authHeaderName ?? null,
      credential: input.credential ?? null,
      settings: input.settings ?? {},
    }),
  );

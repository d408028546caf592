// Owner: add an outgoing webhook. The URL and signing secret are stored encrypted; the secret
// is in this response only (C27).
import { createWebhook } from "@secondshift/domain";
import { z } from "zod";
import { runStatus } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const create = workspaceProcedure
  .input(
    z.object({
      name: z.string().trim().min(1).max(100),
      url: z.string().max(2000),
      jobKeys: z.array(z.string().min(1).max(200)).max(200).optional(),
      statuses: z.array(runStatus).max(20).optional(),
    }),
  )
  .output(z.object({ id: z.string(), secret: z.string() }))
  .mutation(({ ctx, input }) =>
    createWebhook(ctx.workspace, {
      name: input.name,
      url: input.url,
      jobKeys: input.jobKeys ?? [],
      statuses: input.statuses ?? [],
    }),
  );

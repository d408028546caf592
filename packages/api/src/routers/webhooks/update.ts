// Owner: rename a webhook, change its filters (job keys, run statuses; empty: all), or pause
// and resume it. The URL and secret are not changed here (delete and create for a new secret).
import { updateWebhook } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing, runStatus } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const update = workspaceProcedure
  .input(
    z.object({
      webhookId: id,
      name: z.string().trim().min(1).max(100).optional(),
      jobKeys: z.array(z.string().min(1).max(200)).max(200).optional(),
      statuses: z.array(runStatus).max(20).optional(),
      enabled: z.boolean().optional(),
    }),
  )
  .output(nothing)
  .mutation(({ ctx, input }) =>
    updateWebhook(ctx.workspace, {
      webhookId: input.webhookId,
      name: input.name,
      jobKeys: input.jobKeys,
      statuses: input.statuses,
      enabled: input.enabled,
    }),
  );

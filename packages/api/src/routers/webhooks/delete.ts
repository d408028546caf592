// Owner: delete a webhook and its pending deliveries.
import { deleteWebhook } from "@secondshift/domain";
import { z } from "zod";
import { id, nothing } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const remove = workspaceProcedure
  .input(z.object({ webhookId: id }))
  .output(nothing)
  .mutation(({ ctx, input }) => deleteWebhook(ctx.workspace, { webhookId: input.webhookId }));

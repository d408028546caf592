// Owner or admin: send a failed delivery again (C02).
import { redeliverWebhook } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const redeliver = workspaceProcedure
  .input(z.object({ deliveryId: id }))
  .output(z.object({ id: z.string(), status: z.literal("PENDING"), nextAttemptAt: z.date() }))
  .mutation(({ ctx, input }) => redeliverWebhook(ctx.workspace, input));

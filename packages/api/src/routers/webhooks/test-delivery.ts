// Owner: send one signed test event through the real delivery path; it shows in
// webhooks.deliveries (event "webhook.test") with every attempt.
import { sendTestDelivery } from "@secondshift/domain";
import { z } from "zod";
import { id } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

export const testDelivery = workspaceProcedure
  .input(z.object({ webhookId: id }))
  .output(z.object({ deliveryId: z.string() }))
  .mutation(({ ctx, input }) => sendTestDelivery(ctx.workspace, input));

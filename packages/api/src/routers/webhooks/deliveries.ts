// Every member: deliveries with every attempt, filtered by webhook, run or status, paged.
import { listWebhookDeliveries } from "@secondshift/domain";
import { z } from "zod";
import { id, page, pageInput } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";
import { delivery, deliveryStatus } from "./fields.ts";

export const deliveries = workspaceProcedure
  .input(
    z.object({
      ...pageInput,
      webhookId: id.optional(),
      runId: id.optional(),
      status: deliveryStatus.optional(),
    }),
  )
  .output(page(delivery))
  .query(({ ctx, input }) =>
    listWebhookDeliveries(ctx.workspace, {
      cursor: input.cursor,
      limit: input.limit,
      webhookId: input.webhookId,
      runId: input.runId,
      status: input.status,
    }),
  );

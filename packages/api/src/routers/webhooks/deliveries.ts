// Every member: deliveries with every attempt, filtered by webhook, run or status, paged.
import { listWebhookDeliveries } from "@secondshift/access";
import { DeliveryStatus } from "@secondshift/db";
import { z } from "zod";
import { id, page, pageInput } from "../fields.ts";
import { workspaceProcedure } from "../../trpc.ts";

const deliveryStatus = z.enum(DeliveryStatus);

const delivery = z.object({
  id: z.string(),
  webhookId: z.string(),
  runId: z.string(),
  status: deliveryStatus,
  attemptCount: z.number(),
  nextAttemptAt: z.date().nullable(),
  deliveredAt: z.date().nullable(),
  createdAt: z.date(),
  attempts: z.array(
    z.object({
      id: z.string(),
      statusCode: z.number().nullable(),
      error: z.string().nullable(),
      durationMs: z.number(),
      createdAt: z.date(),
    }),
  ),
});

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

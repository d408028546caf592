// Output shapes of the webhooks area: deliveries with every attempt (no URL, no secret).
import { DeliveryStatus } from "@secondshift/db";
import { z } from "zod";

export const deliveryStatus = z.enum(DeliveryStatus);

export const delivery = z.object({
  id: z.string(),
  webhookId: z.string(),
  webhook: z.object({ name: z.string() }),
  runId: z.string().nullable(),
  event: z.string(),
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

// Manual redelivery (owners and admins, C02): a FAILED delivery starts its retry schedule
// again. A DELIVERED report is not sent twice (receivers may act on it), and a PENDING one is
// already being retried; both are refused with a message that says so. The reset itself is the
// webhooks package's mechanism; it commits with its audit row.
import { AppError } from "@secondshift/errors";
import { resetFailedDelivery } from "@secondshift/webhooks";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, type ActorContext } from "../context.ts";

export async function redeliverWebhook(
  ctx: ActorContext,
  input: { deliveryId: string },
): Promise<{ id: string; status: "PENDING"; nextAttemptAt: Date }> {
  await requireRole(ctx, "operate");
  const { db, workspaceId, actor } = ctx;
  const now = new Date();
  return db.$transaction(async (tx) => {
    const result = await resetFailedDelivery(tx, {
      workspaceId,
      deliveryId: input.deliveryId,
      now,
    });
    if (result === "NOT_FOUND") throw notFound("Webhook delivery");
    if (result === "DELIVERED") {
      throw new AppError("CONFLICT", "This report was already delivered; it is not sent twice.", {
        reason: "ALREADY_DELIVERED",
      });
    }
    if (result === "PENDING") {
      throw new AppError(
        "CONFLICT",
        "This report is still being retried; wait for its next attempt.",
        {
          reason: "DELIVERY_PENDING",
        },
      );
    }
    const delivery = await tx.webhookDelivery.findFirst({
      where: { id: input.deliveryId, workspaceId },
      select: { webhook: { select: { name: true } } },
    });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "webhook.redelivered",
      targetType: "WebhookDelivery",
      targetId: input.deliveryId,
      // A delivery is named by its webhook.
      targetLabel: delivery?.webhook.name,
    });
    return { id: input.deliveryId, status: "PENDING" as const, nextAttemptAt: now };
  });
}

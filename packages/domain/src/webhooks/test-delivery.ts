// Owner: send one signed test event to a webhook. It is a delivery row like a run's report, due
// now, so the worker sends it through the real path (claim, signature, netguard, retries) and
// it shows in webhooks.deliveries with every attempt. Deliveries are queued in PostgreSQL, not
// in a BullMQ queue, so there is no ctx.services call: the row is the queue.
import { enqueueTestDelivery } from "@secondshift/webhooks";
import { recordAudit } from "../audit/record.ts";
import { notFound, nowOf, requireRole, type ActorContext } from "../context.ts";

export async function sendTestDelivery(
  ctx: ActorContext,
  input: { webhookId: string },
): Promise<{ deliveryId: string }> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  return db.$transaction(async (tx) => {
    const delivery = await enqueueTestDelivery(tx, {
      workspaceId,
      webhookId: input.webhookId,
      now: nowOf(ctx),
    });
    if (delivery === null) throw notFound("Webhook");
    const webhook = await tx.webhook.findFirst({
      where: { id: input.webhookId, workspaceId },
      select: { name: true },
    });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "webhook.test_sent",
      targetType: "WebhookDelivery",
      targetId: delivery.id,
      // A delivery is named by its webhook.
      targetLabel: webhook?.name,
    });
    return { deliveryId: delivery.id };
  });
}

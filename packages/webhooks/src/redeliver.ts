// The mechanism behind a manual redelivery (authorized and audited by the domain layer,
// `redeliverWebhook` in @secondshift/domain): a FAILED delivery starts its retry schedule again.
// Conditional on FAILED so two clicks (or a click racing the last retry) reset it once.
import type { Db, Prisma } from "@secondshift/db";

/** RESET, or why not: no such delivery in the workspace, or its current status. */
export type ResetResult = "RESET" | "NOT_FOUND" | "DELIVERED" | "PENDING";

export async function resetFailedDelivery(
  db: Db | Prisma.TransactionClient,
  input: { workspaceId: string; deliveryId: string; now: Date },
): Promise<ResetResult> {
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: input.deliveryId, workspaceId: input.workspaceId, status: "FAILED" },
    data: { status: "PENDING", attemptCount: 0, nextAttemptAt: input.now, lastError: null },
  });
  if (count === 1) return "RESET";
  const delivery = await db.webhookDelivery.findFirst({
    where: { id: input.deliveryId, workspaceId: input.workspaceId },
    select: { status: true },
  });
  if (delivery === null) return "NOT_FOUND";
  return delivery.status === "DELIVERED" ? "DELIVERED" : "PENDING";
}

// Manual redelivery from the UI: a FAILED delivery starts its retry schedule again. Only an
// owner or admin of the workspace may do it; the check is here, not in the caller, so no
// route can forget it. A delivery of another workspace behaves as not found (P05).
// A DELIVERED report is not sent again (receivers may act on it), and a PENDING one is
// already being retried; both are refused with a message that says so.
import type { Db } from "@secondshift/db";
import { AppError } from "@secondshift/errors";

export async function redeliver(
  db: Db,
  input: { actor: { userId: string }; workspaceId: string; deliveryId: string; now?: Date },
): Promise<{ id: string; status: "PENDING"; nextAttemptAt: Date }> {
  const membership = await db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: input.workspaceId, userId: input.actor.userId } },
    select: { role: true },
  });
  if (membership === null)
    throw new AppError("NOT_FOUND", "That delivery does not exist.", {
      reason: "DELIVERY_NOT_FOUND",
    });
  if (membership.role !== "OWNER" && membership.role !== "ADMIN") {
    throw new AppError(
      "FORBIDDEN",
      "Only an owner or admin of this workspace can redeliver a webhook report.",
      {
        reason: "ROLE_REQUIRED",
      },
    );
  }
  const delivery = await db.webhookDelivery.findFirst({
    where: { id: input.deliveryId, workspaceId: input.workspaceId },
    select: { id: true, status: true },
  });
  if (delivery === null)
    throw new AppError("NOT_FOUND", "That delivery does not exist.", {
      reason: "DELIVERY_NOT_FOUND",
    });
  const now = input.now ?? new Date();
  // Conditional on FAILED so two clicks (or a click racing the last retry) reset it once.
  const { count } = await db.webhookDelivery.updateMany({
    where: { id: delivery.id, workspaceId: input.workspaceId, status: "FAILED" },
    data: { status: "PENDING", attemptCount: 0, nextAttemptAt: now, lastError: null },
  });
  if (count === 0) {
    const message =
      delivery.status === "DELIVERED"
        ? "This report was already delivered; it is not sent twice."
        : "This report is still being retried; wait for its next attempt.";
    throw new AppError("CONFLICT", message, {
      reason: delivery.status === "DELIVERED" ? "ALREADY_DELIVERED" : "DELIVERY_PENDING",
    });
  }
  return { id: delivery.id, status: "PENDING", nextAttemptAt: now };
}

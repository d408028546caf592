import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { actorContext, seedFailedDelivery, seedTenant } from "../testing/index.ts";
import { redeliverWebhook } from "./redeliver.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  return { a, b };
});

const delivery = (db: Db, id: string) => db.webhookDelivery.findUniqueOrThrow({ where: { id } });

describe("redeliverWebhook", () => {
  test("[C02] an owner or admin restarts a FAILED delivery once; a viewer cannot; [P05] strangers find nothing", async ({
    db,
    tenants: { a, b },
  }) => {
    const deliveryId = await seedFailedDelivery(db, a);
    await expect(
      redeliverWebhook(actorContext(db, a, a.viewerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      redeliverWebhook(actorContext(db, a, b.ownerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    // The owner of another workspace asking in their own workspace finds nothing either.
    await expect(
      redeliverWebhook(actorContext(db, b, b.ownerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", reason: "WEBHOOK_DELIVERY_NOT_FOUND" });
    expect(await delivery(db, deliveryId)).toMatchObject({ status: "FAILED", attemptCount: 8 });

    const result = await redeliverWebhook(actorContext(db, a, a.adminId), { deliveryId });
    expect(result).toMatchObject({ id: deliveryId, status: "PENDING" });
    expect(await delivery(db, deliveryId)).toMatchObject({ status: "PENDING", attemptCount: 0 });
    await expect(
      redeliverWebhook(actorContext(db, a, a.ownerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "CONFLICT", reason: "DELIVERY_PENDING" });
    await db.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: "DELIVERED" },
    });
    await expect(
      redeliverWebhook(actorContext(db, a, a.ownerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "CONFLICT", reason: "ALREADY_DELIVERED" });
    const audit = await db.auditEvent.findMany({ where: { targetId: deliveryId } });
    expect(audit.map((e) => [e.action, e.targetType, e.actorId])).toEqual([
      ["webhook.redelivered", "WebhookDelivery", a.adminId],
    ]);
  });
});

import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorContext, seedFailedDelivery, seedTenant, type Tenant } from "../testing/index.ts";
import { redeliverWebhook } from "./redeliver.ts";

let t: TestDatabase;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
  b = await seedTenant(t.db, "other");
});
afterAll(async () => t?.drop());

const delivery = (id: string) => t.db.webhookDelivery.findUniqueOrThrow({ where: { id } });

describe("redeliverWebhook", () => {
  it("[C02] an owner or admin restarts a FAILED delivery once; a viewer cannot; [P05] strangers find nothing", async () => {
    const deliveryId = await seedFailedDelivery(t.db, a);
    await expect(
      redeliverWebhook(actorContext(t.db, a, a.viewerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      redeliverWebhook(actorContext(t.db, a, b.ownerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    // The owner of another workspace asking in their own workspace finds nothing either.
    await expect(
      redeliverWebhook(actorContext(t.db, b, b.ownerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", reason: "WEBHOOK_DELIVERY_NOT_FOUND" });
    expect(await delivery(deliveryId)).toMatchObject({ status: "FAILED", attemptCount: 8 });

    const result = await redeliverWebhook(actorContext(t.db, a, a.adminId), { deliveryId });
    expect(result).toMatchObject({ id: deliveryId, status: "PENDING" });
    expect(await delivery(deliveryId)).toMatchObject({ status: "PENDING", attemptCount: 0 });
    await expect(
      redeliverWebhook(actorContext(t.db, a, a.ownerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "CONFLICT", reason: "DELIVERY_PENDING" });
    await t.db.webhookDelivery.update({
      where: { id: deliveryId },
      data: { status: "DELIVERED" },
    });
    await expect(
      redeliverWebhook(actorContext(t.db, a, a.ownerId), { deliveryId }),
    ).rejects.toMatchObject({ code: "CONFLICT", reason: "ALREADY_DELIVERED" });
    const audit = await t.db.auditEvent.findMany({ where: { targetId: deliveryId } });
    expect(audit.map((e) => [e.action, e.targetType, e.actorId])).toEqual([
      ["webhook.redelivered", "WebhookDelivery", a.adminId],
    ]);
  });
});

import { dbTest } from "@secondshift/db/testing/vitest";
import { TEST_EVENT } from "@secondshift/webhooks";
import { describe, expect } from "vitest";
import { actorContext, seedTenant, testKeyring } from "../testing/index.ts";
import { listWebhookDeliveries } from "./deliveries.ts";
import { createWebhook, listWebhooks, updateWebhook } from "./manage.ts";
import { sendTestDelivery } from "./test-delivery.ts";

const keyring = testKeyring();

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
}));

describe("webhook test deliveries and filters", () => {
  test("an owner's test event is queued for the worker and listed with the deliveries, audited", async ({
    db,
    tenants: { a },
  }) => {
    const owner = actorContext(db, a, a.ownerId, { keyring });
    const { id: webhookId } = await createWebhook(owner, {
      name: "ci",
      url: "https://hooks.example.test/ci",
    });
    const { deliveryId } = await sendTestDelivery(owner, { webhookId });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "PENDING", runId: null, event: TEST_EVENT });
    expect(row.nextAttemptAt).not.toBeNull();
    const listed = await listWebhookDeliveries(actorContext(db, a, a.viewerId), { webhookId });
    expect(listed.items).toMatchObject([
      { id: deliveryId, event: TEST_EVENT, runId: null, webhook: { name: "ci" }, attempts: [] },
    ]);
    const audit = await db.auditEvent.findFirstOrThrow({
      where: { workspaceId: a.workspaceId, action: "webhook.test_sent" },
    });
    expect(audit).toMatchObject({ actorId: a.ownerId, targetId: deliveryId });
    await expect(
      sendTestDelivery(actorContext(db, a, a.adminId), { webhookId }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  test("an owner changes a webhook's filters and pauses it", async ({ db, tenants: { a } }) => {
    const owner = actorContext(db, a, a.ownerId, { keyring });
    const { id: webhookId } = await createWebhook(owner, {
      name: "failures",
      url: "https://hooks.example.test/f",
    });
    await updateWebhook(owner, {
      webhookId,
      jobKeys: ["nightly", "nightly"],
      statuses: ["FAILED", "TIMED_OUT"],
      enabled: false,
    });
    const hook = (await listWebhooks(owner, {})).find((w) => w.id === webhookId);
    expect(hook).toMatchObject({
      jobKeys: ["nightly"],
      statuses: ["FAILED", "TIMED_OUT"],
      enabled: false,
      name: "failures",
    });
  });
});

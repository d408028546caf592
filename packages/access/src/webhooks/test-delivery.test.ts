import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { TEST_EVENT } from "@secondshift/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorContext, seedTenant, testKeyring, type Tenant } from "../testing/index.ts";
import { listWebhookDeliveries } from "./deliveries.ts";
import { createWebhook, listWebhooks, updateWebhook } from "./manage.ts";
import { sendTestDelivery } from "./test-delivery.ts";

let t: TestDatabase;
let a: Tenant;
const keyring = testKeyring();

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
});
afterAll(async () => t?.drop());

describe("webhook test deliveries and filters", () => {
  it("an owner's test event is queued for the worker and listed with the deliveries, audited", async () => {
    const owner = actorContext(t.db, a, a.ownerId, { keyring });
    const { id: webhookId } = await createWebhook(owner, {
      name: "ci",
      url: "https://hooks.example.test/ci",
    });
    const { deliveryId } = await sendTestDelivery(owner, { webhookId });
    const row = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } });
    expect(row).toMatchObject({ status: "PENDING", runId: null, event: TEST_EVENT });
    expect(row.nextAttemptAt).not.toBeNull();
    const listed = await listWebhookDeliveries(actorContext(t.db, a, a.viewerId), { webhookId });
    expect(listed.items).toMatchObject([
      { id: deliveryId, event: TEST_EVENT, runId: null, webhook: { name: "ci" }, attempts: [] },
    ]);
    const audit = await t.db.auditEvent.findFirstOrThrow({
      where: { workspaceId: a.workspaceId, action: "webhook.test_sent" },
    });
    expect(audit).toMatchObject({ actorId: a.ownerId, targetId: deliveryId });
    await expect(
      sendTestDelivery(actorContext(t.db, a, a.adminId), { webhookId }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
  });

  it("an owner changes a webhook's filters and pauses it", async () => {
    const owner = actorContext(t.db, a, a.ownerId, { keyring });
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

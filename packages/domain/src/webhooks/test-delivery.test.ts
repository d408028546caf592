import { dbTest } from "@secondshift/db/testing/vitest";
import { TEST_EVENT } from "@secondshift/webhooks";
import { describe, expect } from "vitest";
import { getRun } from "../runs/read.ts";
import { actorContext, createRun, seedJob, seedTenant, testKeyring } from "../testing/index.ts";
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

  test("an output's later delivery is listed under its run, on the run page and the run filter", async ({
    db,
    tenants: { a },
  }) => {
    const owner = actorContext(db, a, a.ownerId, { keyring });
    const { id: webhookId } = await createWebhook(owner, {
      name: "results",
      url: "https://hooks.example.test/results",
    });
    const jobId = await seedJob(db, a);
    const runId = await createRun(db, a.workspaceId, jobId);
    const output = await db.runOutput.create({
      data: { workspaceId: a.workspaceId, runId, jobId, seq: 0, kind: "issue", payload: {} },
    });
    const delivery = await db.webhookDelivery.create({
      data: {
        workspaceId: a.workspaceId,
        webhookId,
        outputId: output.id,
        event: "output.applied",
      },
    });
    const viewer = actorContext(db, a, a.viewerId);
    const listed = await listWebhookDeliveries(viewer, { runId });
    expect(listed.items).toMatchObject([{ id: delivery.id, event: "output.applied", runId }]);
    expect((await getRun(viewer, { runId })).deliveries).toMatchObject([
      { id: delivery.id, runId },
    ]);
  });
});

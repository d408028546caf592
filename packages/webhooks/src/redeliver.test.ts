import { describe, expect } from "vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { enqueueReports } from "./enqueue.ts";
import { createDeliveryProcessor } from "./processor.ts";
import { resetFailedDelivery } from "./redeliver.ts";
import {
  createRun,
  createTenant,
  createWebhook,
  startReceiver,
  testKeyring,
} from "./testing/fixtures.ts";
import { deliveryTest as test } from "./testing/vitest.ts";

const keyring = testKeyring();
const t0 = new Date("2026-01-05T10:01:00.000Z");

describe("manual redelivery and the polling processor", () => {
  test("[P05] a FAILED delivery is reset once and delivered again; another workspace's id and DELIVERED reports are refused", async ({
    db,
    client,
  }) => {
    const r = await startReceiver();
    const tenant = await createTenant(db);
    const other = await createTenant(db);
    await createWebhook(db, keyring, tenant.workspaceId, {
      url: `http://127.0.0.1:${r.port}/h`,
      secret: "whsec_redeliver_0123456",
    });
    const run = await createRun(db, tenant);
    await enqueueReports(db, { workspaceId: tenant.workspaceId, runId: run.id, now: t0 });
    const delivery = await db.webhookDelivery.findFirstOrThrow({ where: { runId: run.id } });
    await db.webhookDelivery.update({
      where: { id: delivery.id },
      data: { status: "FAILED", attemptCount: 8, nextAttemptAt: null },
    });

    const input = { workspaceId: tenant.workspaceId, deliveryId: delivery.id, now: t0 };
    expect(await resetFailedDelivery(db, { ...input, workspaceId: other.workspaceId })).toBe(
      "NOT_FOUND",
    );
    expect(
      await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }),
    ).toMatchObject({ status: "FAILED" });
    expect(await resetFailedDelivery(db, input)).toBe("RESET");
    expect(await resetFailedDelivery(db, input)).toBe("PENDING");
    expect(
      await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }),
    ).toMatchObject({ status: "PENDING", attemptCount: 0, nextAttemptAt: t0, lastError: null });

    const masker = new SecretMasker();
    const processor = createDeliveryProcessor(
      db,
      {
        keyring,
        client,
        masker,
        logger: createLogger({ name: "t", destination: createMemorySink().stream, masker }),
        runLink: (x) => `https://secondshift.example.test/runs/${x.id}`,
      },
      { clock: () => t0 },
    );
    expect(await processor.tick()).toMatchObject({ delivered: 1 });
    await processor.stop();
    expect(r.received).toHaveLength(1);
    expect(
      await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }),
    ).toMatchObject({ status: "DELIVERED", attemptCount: 1 });
    expect(await resetFailedDelivery(db, input)).toBe("DELIVERED");
    await r.close();
  });
});

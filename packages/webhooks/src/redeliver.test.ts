import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@secondshift/db";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { createOutboundClient, type OutboundClient } from "@secondshift/netguard";
import { enqueueReports } from "./enqueue.ts";
import { createDeliveryProcessor } from "./processor.ts";
import { redeliver } from "./redeliver.ts";
import {
  addMember,
  createRun,
  createTenant,
  createWebhook,
  loopbackPolicy,
  startReceiver,
  testKeyring,
} from "./test-fixtures.ts";

let database: TestDatabase;
let db: Db;
let client: OutboundClient;
const keyring = testKeyring();
const t0 = new Date("2026-01-05T10:01:00.000Z");

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  client = createOutboundClient(loopbackPolicy({ timeoutMs: 2_000 }));
});
afterAll(async () => {
  await client.close();
  await database.drop();
});

describe("manual redelivery and the polling processor", () => {
  it("an owner or admin restarts a FAILED delivery; viewers, strangers and DELIVERED reports are refused", async () => {
    const r = await startReceiver();
    const tenant = await createTenant(db);
    const other = await createTenant(db);
    const admin = await addMember(db, tenant.workspaceId, "ADMIN");
    const viewer = await addMember(db, tenant.workspaceId, "VIEWER");
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
    await expect(redeliver(db, { ...input, actor: { userId: viewer } })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      redeliver(db, { ...input, actor: { userId: other.ownerId } }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    // P05: the owner of another workspace asking with their own workspace id finds nothing.
    await expect(
      redeliver(db, {
        workspaceId: other.workspaceId,
        deliveryId: delivery.id,
        actor: { userId: other.ownerId },
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });

    expect(await redeliver(db, { ...input, actor: { userId: admin } })).toMatchObject({
      status: "PENDING",
    });
    await expect(
      redeliver(db, { ...input, actor: { userId: tenant.ownerId } }),
    ).rejects.toMatchObject({ reason: "DELIVERY_PENDING" });

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
    await expect(
      redeliver(db, { ...input, actor: { userId: tenant.ownerId } }),
    ).rejects.toMatchObject({ reason: "ALREADY_DELIVERED" });
    await r.close();
  });
});

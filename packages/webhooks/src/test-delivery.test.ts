// An owner's test event goes through the real delivery path: a PENDING row the worker's
// deliverDue claims, signs, sends through netguard and records — retried like a report when the
// receiver fails, and never carrying a run.
import { describe, expect } from "vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import type { OutboundClient } from "@secondshift/netguard";
import { deliverDue, TEST_EVENT, type DeliveryDeps } from "./deliver.ts";
import { enqueueTestDelivery } from "./enqueue.ts";
import { DELIVERY_HEADER, EVENT_HEADER, verifySignature } from "./signature.ts";
import { createTenant, createWebhook, startReceiver, testKeyring } from "./testing/fixtures.ts";
import { deliveryTest as test } from "./testing/vitest.ts";

const keyring = testKeyring();
const secret = "whsec_test_event_secret_0123456789";

function deps(client: OutboundClient): DeliveryDeps {
  const masker = new SecretMasker();
  return {
    keyring,
    client,
    masker,
    logger: createLogger({ name: "test-event", destination: createMemorySink().stream, masker }),
    runLink: (run) => `https://secondshift.example.test/runs/${run.id}`,
    random: () => 0.5,
  };
}

describe("test deliveries", () => {
  test("a test event is signed and sent by the worker's pass, then recorded with its attempts", async ({
    db,
    client,
  }) => {
    const receiver = await startReceiver();
    let calls = 0;
    receiver.respond = (_req, res) => res.writeHead(++calls === 1 ? 503 : 204).end();
    const tenant = await createTenant(db);
    const url = `http://127.0.0.1:${receiver.port}/hooks`;
    const webhook = await createWebhook(db, keyring, tenant.workspaceId, { url, secret });
    const now = new Date();
    const queued = await enqueueTestDelivery(db, {
      workspaceId: tenant.workspaceId,
      webhookId: webhook.id,
      now,
    });
    expect(queued).not.toBeNull();

    expect(await deliverDue(db, deps(client), { now })).toMatchObject({
      attempted: 1,
      retrying: 1,
    });
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: queued!.id } });
    expect(await deliverDue(db, deps(client), { now: row.nextAttemptAt! })).toMatchObject({
      delivered: 1,
    });

    expect(receiver.received).toHaveLength(2);
    const request = receiver.received[1]!;
    expect(request.headers[EVENT_HEADER.toLowerCase()]).toBe(TEST_EVENT);
    expect(request.headers[DELIVERY_HEADER.toLowerCase()]).toBe(queued!.id);
    const signature = request.headers["secondshift-signature"] as string;
    expect(verifySignature(signature, request.body, secret).ok).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({
      event: TEST_EVENT,
      webhook: { id: webhook.id, name: "Reports" },
    });
    expect(request.body).not.toContain(url);

    const delivered = await db.webhookDelivery.findUniqueOrThrow({
      where: { id: queued!.id },
      include: { attempts: { orderBy: { createdAt: "asc" } } },
    });
    expect(delivered).toMatchObject({ status: "DELIVERED", runId: null, event: TEST_EVENT });
    expect(delivered.attempts.map((a) => a.statusCode)).toEqual([503, 204]);
    await receiver.close();
  });

  test("[P05] finds no webhook of another workspace", async ({ db }) => {
    const a = await createTenant(db);
    const b = await createTenant(db);
    const hook = await createWebhook(db, keyring, b.workspaceId, {
      url: "http://127.0.0.1:9/",
      secret,
    });
    expect(
      await enqueueTestDelivery(db, { workspaceId: a.workspaceId, webhookId: hook.id }),
    ).toBeNull();
    expect(await db.webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(0);
  });
});

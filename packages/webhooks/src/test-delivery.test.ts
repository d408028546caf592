// An owner's test event goes through the real delivery path: a PENDING row the worker's
// deliverDue claims, signs, sends through netguard and records — retried like a report when the
// receiver fails, and never carrying a run.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { createOutboundClient, type OutboundClient } from "@secondshift/netguard";
import { deliverDue, TEST_EVENT, type DeliveryDeps } from "./deliver.ts";
import { enqueueTestDelivery } from "./enqueue.ts";
import { DELIVERY_HEADER, EVENT_HEADER, verifySignature } from "./signature.ts";
import {
  createTenant,
  createWebhook,
  loopbackPolicy,
  startReceiver,
  testKeyring,
} from "./testing/fixtures.ts";

let t: TestDatabase;
let client: OutboundClient;
const keyring = testKeyring();
const secret = "whsec_test_event_secret_0123456789";

beforeAll(async () => {
  t = await createTestDatabase();
  client = createOutboundClient(loopbackPolicy({ timeoutMs: 2_000 }));
});
afterAll(async () => {
  await client.close();
  await t.drop();
});

function deps(): DeliveryDeps {
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
  it("a test event is signed and sent by the worker's pass, then recorded with its attempts", async () => {
    const receiver = await startReceiver();
    let calls = 0;
    receiver.respond = (_req, res) => res.writeHead(++calls === 1 ? 503 : 204).end();
    const tenant = await createTenant(t.db);
    const url = `http://127.0.0.1:${receiver.port}/hooks`;
    const webhook = await createWebhook(t.db, keyring, tenant.workspaceId, { url, secret });
    const now = new Date();
    const queued = await enqueueTestDelivery(t.db, {
      workspaceId: tenant.workspaceId,
      webhookId: webhook.id,
      now,
    });
    expect(queued).not.toBeNull();

    expect(await deliverDue(t.db, deps(), { now })).toMatchObject({ attempted: 1, retrying: 1 });
    const row = await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: queued!.id } });
    expect(await deliverDue(t.db, deps(), { now: row.nextAttemptAt! })).toMatchObject({
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

    const delivered = await t.db.webhookDelivery.findUniqueOrThrow({
      where: { id: queued!.id },
      include: { attempts: { orderBy: { createdAt: "asc" } } },
    });
    expect(delivered).toMatchObject({ status: "DELIVERED", runId: null, event: TEST_EVENT });
    expect(delivered.attempts.map((a) => a.statusCode)).toEqual([503, 204]);
    await receiver.close();
  });

  it("[P05] finds no webhook of another workspace", async () => {
    const a = await createTenant(t.db);
    const b = await createTenant(t.db);
    const hook = await createWebhook(t.db, keyring, b.workspaceId, {
      url: "http://127.0.0.1:9/",
      secret,
    });
    expect(
      await enqueueTestDelivery(t.db, { workspaceId: a.workspaceId, webhookId: hook.id }),
    ).toBeNull();
    expect(await t.db.webhookDelivery.count({ where: { webhookId: hook.id } })).toBe(0);
  });
});

// P06 through the webhook's one reader: the worker's delivery pass (an owner's test delivery and
// a run's report take the same path). A URL or secret ciphertext moved with SQL to another
// webhook's row, to the other field of its row, or (its whole row) to another workspace is
// refused: nothing is sent, and the attempt records why without the URL or the secret.
import { randomUUID } from "node:crypto";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import type { OutboundClient } from "@secondshift/netguard";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { deliverDue, type DeliveryDeps } from "./deliver.ts";
import { enqueueTestDelivery } from "./enqueue.ts";
import {
  createTenant,
  createWebhook,
  startReceiver,
  testKeyring,
  type Receiver,
} from "./testing/fixtures.ts";
import { deliveryTest as test } from "./testing/vitest.ts";
import type { Db } from "@secondshift/db";

const keyring = testKeyring();
const sink = createMemorySink();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
  receiver.respond = (_req, res) => res.writeHead(204).end();
});
afterAll(() => receiver.close());

function deps(client: OutboundClient): DeliveryDeps {
  const masker = new SecretMasker();
  return {
    keyring,
    client,
    masker,
    logger: createLogger({ name: "p06", destination: sink.stream, masker }),
    runLink: (run) => `https://secondshift.example.test/runs/${run.id}`,
    random: () => 0.5,
  };
}

/** A webhook with a planted URL path and secret, and both values to search for. */
async function webhook(db: Db, workspaceId: string) {
  const path = `/hooks/p06-${randomUUID()}`;
  const secret = `whsec_p06_${randomUUID()}`;
  const row = await createWebhook(db, keyring, workspaceId, {
    url: `http://127.0.0.1:${receiver.port}${path}`,
    secret,
  });
  return { id: row.id, planted: [path, secret] };
}

/** Sends a test delivery now and returns what the attempt recorded. */
async function testDelivery(db: Db, client: OutboundClient, workspaceId: string, id: string) {
  const now = new Date();
  const queued = await enqueueTestDelivery(db, { workspaceId, webhookId: id, now });
  expect(queued).not.toBeNull();
  await deliverDue(db, deps(client), { now });
  const delivery = await db.webhookDelivery.findUniqueOrThrow({
    where: { id: queued!.id },
    include: { attempts: true },
  });
  return delivery;
}

async function expectRefused(
  db: Db,
  client: OutboundClient,
  workspaceId: string,
  id: string,
  planted: string[],
) {
  const sent = receiver.received.length;
  const delivery = await testDelivery(db, client, workspaceId, id);
  expect(receiver.received.length).toBe(sent); // nothing left the worker
  expect(delivery.status).not.toBe("DELIVERED");
  expect(delivery.attempts).toHaveLength(1);
  expect(delivery.attempts[0]!.error).toMatch(
    /does not decrypt for this webhook: it was altered or copied from another row, field or workspace/,
  );
  expect(delivery.lastError).toBe(delivery.attempts[0]!.error);
  const said = JSON.stringify(delivery) + sink.text();
  for (const value of planted) expect(said).not.toContain(value);
}

describe("moved webhook ciphertexts", () => {
  test("[P06] a URL ciphertext copied into another webhook's row: the delivery is refused, nothing is sent", async ({
    db,
    client,
  }) => {
    const tenant = await createTenant(db);
    const from = await webhook(db, tenant.workspaceId);
    const to = await webhook(db, tenant.workspaceId);
    // Before the move the target delivers to its own URL.
    const before = await testDelivery(db, client, tenant.workspaceId, to.id);
    expect(before.status).toBe("DELIVERED");
    expect(receiver.received.at(-1)!.url).toBe(to.planted[0]);

    await db.$executeRaw`UPDATE "Webhook" SET "urlCiphertext" =
      (SELECT "urlCiphertext" FROM "Webhook" WHERE id = ${from.id}) WHERE id = ${to.id}`;
    await expectRefused(db, client, tenant.workspaceId, to.id, [...from.planted, ...to.planted]);
  });

  test("[P06] the secret ciphertext moved into the URL field of its row: refused", async ({
    db,
    client,
  }) => {
    const tenant = await createTenant(db);
    const hook = await webhook(db, tenant.workspaceId);
    await db.$executeRaw`UPDATE "Webhook" SET "urlCiphertext" = "secretCiphertext" WHERE id = ${hook.id}`;
    await expectRefused(db, client, tenant.workspaceId, hook.id, hook.planted);
  });

  test("[P06] the webhook's row moved to another workspace (same id, same fields): refused there", async ({
    db,
    client,
  }) => {
    const home = await createTenant(db);
    const other = await createTenant(db);
    const hook = await webhook(db, home.workspaceId);
    await db.$executeRaw`UPDATE "Webhook" SET "workspaceId" = ${other.workspaceId} WHERE id = ${hook.id}`;
    await expectRefused(db, client, other.workspaceId, hook.id, hook.planted);
  });
});

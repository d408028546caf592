import { randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createKeyring, encryptField } from "@secondshift/crypto";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { createSyncQueue, type SyncQueue } from "@secondshift/scheduler";
import { gitHubSignatureHeader, signatureHeader } from "@secondshift/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebServer } from "./server.ts";

let t: TestDatabase;
let queue: SyncQueue;
let base: string;
let close: () => Promise<void>;
const keyring = createKeyring(new Uint8Array(randomBytes(32)));
const secret = `push-secret-${randomBytes(8).toString("hex")}`;
const sink = createMemorySink();
let repositoryId: string;
let workspaceId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  queue = createSyncQueue({
    connection: { url: process.env.TEST_REDIS_URL!, maxRetriesPerRequest: null },
    prefix: `web-${randomUUID().slice(0, 8)}`,
  });
  const ws = await t.db.workspace.create({ data: { slug: `ws-${randomUUID()}`, name: "W" } });
  workspaceId = ws.id;
  repositoryId = randomUUID();
  await t.db.repository.create({
    data: {
      id: repositoryId,
      workspaceId,
      fullName: "acme/app",
      cloneUrl: "https://git.example.test/acme/app.git",
      webhookSecretCiphertext: await encryptField(keyring, secret, {
        workspaceId,
        table: "Repository",
        rowId: repositoryId,
        field: "webhookSecretCiphertext",
      }),
    },
  });
  const server = createWebServer({
    db: t.db,
    keyring,
    syncQueue: queue,
    logger: createLogger({ name: "web", destination: sink.stream }),
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((r) => server.close(() => r()));
});
afterAll(async () => {
  await close();
  await queue.obliterate({ force: true });
  await queue.close();
  await t.drop();
});

const push = (body: string, headers: Record<string, string>, id = repositoryId) =>
  fetch(`${base}/webhooks/repositories/${id}/push`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });

describe("push webhooks", () => {
  it("[P08] a signed push to the default branch starts one sync; tampered, unsigned and replayed ones do not", async () => {
    const body = JSON.stringify({ ref: "refs/heads/main", after: "a".repeat(40) });
    const ok = await push(body, { "X-Hub-Signature-256": gitHubSignatureHeader(secret, body) });
    expect(ok.status).toBe(202);
    expect(await queue.getWaitingCount()).toBe(1);
    const [job] = await queue.getWaiting();
    expect(job?.data).toEqual({ workspaceId, repositoryId });

    expect(
      (await push(body, { "X-Hub-Signature-256": gitHubSignatureHeader(secret, body) })).status,
    ).toBe(409);
    expect(
      (
        await push(body.replace("main", "evil"), {
          "X-Hub-Signature-256": gitHubSignatureHeader(secret, body),
        })
      ).status,
    ).toBe(401);
    expect((await push(body, {})).status).toBe(401);
    expect(
      (await push(body, { "X-Hub-Signature-256": gitHubSignatureHeader("wrong-secret", body) }))
        .status,
    ).toBe(401);
    const old = signatureHeader(secret, body, new Date(Date.now() - 3_600_000));
    expect((await push(body, { "SecondShift-Signature": old })).status).toBe(401);
    expect(await queue.getWaitingCount()).toBe(1);
    expect(sink.text()).not.toContain(secret);
  });

  it("an unknown repository looks the same as one without a webhook secret: 404", async () => {
    const body = "{}";
    expect(
      (
        await push(
          body,
          { "X-Hub-Signature-256": gitHubSignatureHeader(secret, body) },
          randomUUID(),
        )
      ).status,
    ).toBe(404);
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it("refuses bodies over 1 MiB", async () => {
    const response = await push("x".repeat(1024 * 1024 + 10), {}).catch(() => null);
    expect(response === null || response.status === 413).toBe(true);
  });
});

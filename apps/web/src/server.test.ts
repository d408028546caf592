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
let secondBase: string;
let closeSecond: () => Promise<void>;
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
  ({ base, close } = await startWebServer());
  // A second web process on the same database, as with two replicas behind a load balancer.
  ({ base: secondBase, close: closeSecond } = await startWebServer());
});
afterAll(async () => {
  await close();
  await closeSecond();
  await queue.obliterate({ force: true });
  await queue.close();
  await t.drop();
});

async function startWebServer() {
  const server = createWebServer({
    db: t.db,
    keyring,
    syncQueue: queue,
    logger: createLogger({ name: "web", destination: sink.stream }),
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const push = (body: string, headers: Record<string, string>, id = repositoryId, to = base) =>
  fetch(`${to}/webhooks/repositories/${id}/push`, {
    method: "POST",
    body,
    headers: { "content-type": "application/json", ...headers },
  });

describe("security headers", () => {
  it("every route carries the static headers; HSTS only when served over https", async () => {
    for (const path of ["/healthz", "/nope", `/webhooks/repositories/${repositoryId}/push`]) {
      const response = await fetch(`${base}${path}`);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("content-security-policy"), path).toContain("default-src 'none'");
      expect(response.headers.get("strict-transport-security"), path).toBeNull();
    }
    const server = createWebServer({
      db: t.db,
      keyring,
      syncQueue: queue,
      logger: createLogger({ name: "web", destination: sink.stream }),
      https: true,
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as AddressInfo).port;
    const response = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
    await new Promise<void>((r) => server.close(() => r()));
  });
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

  it("[P08] a delivery replayed to another web process is refused", async () => {
    const body = JSON.stringify({ ref: "refs/heads/main", after: "b".repeat(40) });
    const headers = { "SecondShift-Signature": signatureHeader(secret, body) };
    expect((await push(body, headers, repositoryId, base)).status).toBe(202);
    const replay = await push(body, headers, repositoryId, secondBase);
    expect(replay.status).toBe(409);
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

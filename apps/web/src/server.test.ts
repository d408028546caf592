import { randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createKeyring, encryptField } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { createSyncQueue, type SyncQueue } from "@secondshift/scheduler";
import { gitHubSignatureHeader, signatureHeader } from "@secondshift/webhooks";
import { describe, expect } from "vitest";
import { createWebServer } from "./server.ts";

const keyring = createKeyring(new Uint8Array(randomBytes(32)));
const secret = `push-secret-${randomBytes(8).toString("hex")}`;
const sink = createMemorySink();

async function startWebServer(db: Db, queue: SyncQueue) {
  const server = createWebServer({
    db,
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

const test = dbTest
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("queue", { scope: "file" }, ({}, { onCleanup }) => {
    const queue = createSyncQueue({
      connection: { url: process.env.TEST_REDIS_URL!, maxRetriesPerRequest: null },
      prefix: `web-${randomUUID().slice(0, 8)}`,
    });
    onCleanup(async () => {
      await queue.obliterate({ force: true });
      await queue.close();
    });
    return queue;
  })
  /** A repository with a push webhook secret. */
  .extend("repository", { scope: "file" }, async ({ db }) => {
    const ws = await db.workspace.create({ data: { slug: `ws-${randomUUID()}`, name: "W" } });
    const repositoryId = randomUUID();
    await db.repository.create({
      data: {
        id: repositoryId,
        workspaceId: ws.id,
        fullName: "acme/app",
        cloneUrl: "https://git.example.test/acme/app.git",
        webhookSecretCiphertext: await encryptField(keyring, secret, {
          workspaceId: ws.id,
          table: "Repository",
          rowId: repositoryId,
          field: "webhookSecretCiphertext",
        }),
      },
    });
    return { workspaceId: ws.id, repositoryId };
  })
  .extend("web", { scope: "file" }, async ({ db, queue }, { onCleanup }) => {
    const web = await startWebServer(db, queue);
    onCleanup(web.close);
    return web;
  })
  // A second web process on the same database, as with two replicas behind a load balancer.
  .extend("secondWeb", { scope: "file" }, async ({ db, queue }, { onCleanup }) => {
    const web = await startWebServer(db, queue);
    onCleanup(web.close);
    return web;
  })
  /** A push to a repository's webhook (by default the repository's, on the first process). */
  .extend(
    "push",
    { scope: "file" },
    ({ repository, web }) =>
      (
        body: string,
        headers: Record<string, string>,
        id = repository.repositoryId,
        to = web.base,
      ) =>
        fetch(`${to}/webhooks/repositories/${id}/push`, {
          method: "POST",
          body,
          headers: { "content-type": "application/json", ...headers },
        }),
  );

describe("security headers", () => {
  test("every route carries the static headers; HSTS only when served over https", async ({
    db,
    queue,
    repository,
    web,
  }) => {
    for (const path of [
      "/healthz",
      "/nope",
      `/webhooks/repositories/${repository.repositoryId}/push`,
    ]) {
      const response = await fetch(`${web.base}${path}`);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      expect(response.headers.get("referrer-policy"), path).toBe("no-referrer");
      expect(response.headers.get("x-frame-options"), path).toBe("DENY");
      expect(response.headers.get("content-security-policy"), path).toContain("default-src 'none'");
      expect(response.headers.get("strict-transport-security"), path).toBeNull();
    }
    const server = createWebServer({
      db,
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
  test("[P08] a signed push to the default branch starts one sync; tampered, unsigned and replayed ones do not", async ({
    queue,
    repository,
    push,
  }) => {
    const body = JSON.stringify({ ref: "refs/heads/main", after: "a".repeat(40) });
    const ok = await push(body, { "X-Hub-Signature-256": gitHubSignatureHeader(secret, body) });
    expect(ok.status).toBe(202);
    expect(await queue.getWaitingCount()).toBe(1);
    const [job] = await queue.getWaiting();
    expect(job?.data).toEqual(repository);

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

  test("[P08] a delivery replayed to another web process is refused", async ({
    repository,
    web,
    secondWeb,
    push,
  }) => {
    const body = JSON.stringify({ ref: "refs/heads/main", after: "b".repeat(40) });
    const headers = { "SecondShift-Signature": signatureHeader(secret, body) };
    expect((await push(body, headers, repository.repositoryId, web.base)).status).toBe(202);
    const replay = await push(body, headers, repository.repositoryId, secondWeb.base);
    expect(replay.status).toBe(409);
  });

  test("an unknown repository looks the same as one without a webhook secret: 404", async ({
    web,
    push,
  }) => {
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
    expect((await fetch(`${web.base}/nope`)).status).toBe(404);
    expect((await fetch(`${web.base}/healthz`)).status).toBe(200);
  });

  test("refuses bodies over 1 MiB", async ({ push }) => {
    const response = await push("x".repeat(1024 * 1024 + 10), {}).catch(() => null);
    expect(response === null || response.status === 413).toBe(true);
  });
});

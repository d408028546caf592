import { randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { createKeyring, encryptField } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import {
  seedAppConnection,
  seedGitHubRepository,
  seedTokenConnection,
  seedTriggerJob,
  seedWorkspaceRow,
} from "@secondshift/events/testing/fixtures";
import {
  issueCommentPayload,
  issuesPayload,
  pullRequestPayload,
  signedDelivery,
} from "@secondshift/events/testing/payloads";
import {
  createRunQueue,
  createSyncQueue,
  type RunQueue,
  type SyncQueue,
} from "@secondshift/scheduler";
import { gitHubSignatureHeader, signatureHeader } from "@secondshift/webhooks";
import { describe, expect } from "vitest";
import { createWebServer } from "./server.ts";

const keyring = createKeyring(new Uint8Array(randomBytes(32)));
const secret = `push-secret-${randomBytes(8).toString("hex")}`;
const sink = createMemorySink();

async function startWebServer(db: Db, queue: SyncQueue, runQueue: RunQueue) {
  const server = createWebServer({
    db,
    keyring,
    syncQueue: queue,
    runQueue,
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
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("runQueue", { scope: "file" }, ({}, { onCleanup }) => {
    const queue = createRunQueue({
      connection: { url: process.env.TEST_REDIS_URL!, maxRetriesPerRequest: null },
      prefix: `web-runs-${randomUUID().slice(0, 8)}`,
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
  .extend("web", { scope: "file" }, async ({ db, queue, runQueue }, { onCleanup }) => {
    const web = await startWebServer(db, queue, runQueue);
    onCleanup(web.close);
    return web;
  })
  // A second web process on the same database, as with two replicas behind a load balancer.
  .extend("secondWeb", { scope: "file" }, async ({ db, queue, runQueue }, { onCleanup }) => {
    const web = await startWebServer(db, queue, runQueue);
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
    runQueue,
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
      runQueue,
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

/** A GitHub repository (bound to a token connection) with its own hook secret, and its jobs. */
async function eventRepository(db: Db) {
  const workspaceId = await seedWorkspaceRow(db);
  const connectionId = await seedTokenConnection(db, workspaceId);
  const fullName = `acme/events-${randomUUID().slice(0, 6)}`;
  const repositoryId = await seedGitHubRepository(db, keyring, {
    workspaceId,
    fullName,
    connectionId,
    secret,
  });
  return { workspaceId, fullName, repositoryId };
}

async function deliver(url: string, key: string, event: string, payload: unknown) {
  const { headers, body } = await signedDelivery(key, event, payload);
  const response = await fetch(url, { method: "POST", body, headers });
  return { status: response.status, ...((await response.json()) as { message: string }) };
}

describe("event webhooks", () => {
  test("[E04] signed pull request, issue and comment deliveries each queue exactly one run on the right commit", async ({
    db,
    web,
    runQueue,
  }) => {
    const r = await eventRepository(db);
    const at = (key: string, triggers: Parameters<typeof seedTriggerJob>[1]["triggers"]) =>
      seedTriggerJob(db, {
        workspaceId: r.workspaceId,
        repositoryId: r.repositoryId,
        key,
        triggers,
      });
    await at("review", { pull_request: { actions: ["opened"], bots: false } });
    await at("triage", { issue: { actions: ["labeled"], labels: ["bug"], bots: false } });
    await at("fix", { comment_command: { bots: false } });
    const url = `${web.base}/webhooks/repositories/${r.repositoryId}/push`;
    const head = "c0ffee".padEnd(40, "0");
    const planted = `issue body ${randomBytes(6).toString("hex")}`;
    const answers = [
      await deliver(
        url,
        secret,
        "pull_request",
        pullRequestPayload("opened", { repository: r.fullName, headSha: head, number: 11 }),
      ),
      await deliver(url, secret, "issues", {
        ...issuesPayload("labeled", {
          repository: r.fullName,
          number: 12,
          labels: ["bug"],
          label: "bug",
        }),
      }),
      await deliver(
        url,
        secret,
        "issue_comment",
        issueCommentPayload({
          repository: r.fullName,
          number: 11,
          onPullRequest: true,
          body: `/secondshift fix\n${planted}`,
        }),
      ),
    ];
    expect(answers).toEqual(Array(3).fill({ status: 202, message: "Queued 1 run(s); dropped 0." }));
    const runs = await db.run.findMany({
      where: { workspaceId: r.workspaceId },
      orderBy: { queuedAt: "asc" },
    });
    expect(runs.map((run) => [run.trigger, run.status, run.commitSha])).toEqual([
      ["EVENT", "QUEUED", head],
      ["EVENT", "QUEUED", null],
      ["EVENT", "QUEUED", null],
    ]);
    for (const run of runs)
      expect((await runQueue.getJob(run.id))?.data).toEqual({
        runId: run.id,
        workspaceId: r.workspaceId,
      });
    // One log line per delivery, without bodies.
    expect(sink.text()).toContain('"event":"issue_comment"');
    expect(sink.text()).not.toContain(planted);
  });

  test("[E04] replayed, stale, forged and other-repository deliveries start nothing", async ({
    db,
    web,
  }) => {
    const r = await eventRepository(db);
    await seedTriggerJob(db, {
      workspaceId: r.workspaceId,
      repositoryId: r.repositoryId,
      key: "review",
      triggers: { pull_request: { actions: ["opened", "synchronize"], bots: false } },
    });
    const url = `${web.base}/webhooks/repositories/${r.repositoryId}/push`;
    const payload = pullRequestPayload("opened", {
      repository: r.fullName,
      headSha: "1".repeat(40),
    });
    const { headers, body } = await signedDelivery(secret, "pull_request", payload);
    expect((await fetch(url, { method: "POST", body, headers })).status).toBe(202);
    expect((await fetch(url, { method: "POST", body, headers })).status).toBe(409);
    const stale = pullRequestPayload("synchronize", {
      repository: r.fullName,
      headSha: "2".repeat(40),
      at: new Date(Date.now() - 3_600_000),
    });
    expect((await deliver(url, secret, "pull_request", stale)).status).toBe(422);
    const forged = pullRequestPayload("synchronize", {
      repository: r.fullName,
      headSha: "3".repeat(40),
    });
    expect((await deliver(url, "whsec_forged", "pull_request", forged)).status).toBe(401);
    const other = pullRequestPayload("synchronize", {
      repository: "someone/else",
      headSha: "4".repeat(40),
    });
    expect(await deliver(url, secret, "pull_request", other)).toEqual({
      status: 403,
      message: "This delivery names another repository; nothing was started.",
    });
    expect(await db.run.count({ where: { workspaceId: r.workspaceId } })).toBe(1);
  });

  test("[E04] the App hook routes by installation and repository; another workspace's installation or connection starts nothing", async ({
    db,
    web,
    queue,
  }) => {
    const appSecret = `whsec_app_${randomBytes(6).toString("hex")}`;
    const mine = await seedWorkspaceRow(db);
    const theirs = await seedWorkspaceRow(db);
    const myApp = await seedAppConnection(db, keyring, {
      workspaceId: mine,
      secret: appSecret,
      appId: 900,
      installationId: 901,
      appSlug: "secondshift-mine",
    });
    const theirSecret = `whsec_app_${randomBytes(6).toString("hex")}`;
    const theirApp = await seedAppConnection(db, keyring, {
      workspaceId: theirs,
      secret: theirSecret,
      appId: 900,
      installationId: 902,
    });
    const fullName = `mine/app-${randomUUID().slice(0, 6)}`;
    const repositoryId = await seedGitHubRepository(db, keyring, {
      workspaceId: mine,
      fullName,
      connectionId: myApp,
    });
    const theirRepo = `theirs/app-${randomUUID().slice(0, 6)}`;
    await seedGitHubRepository(db, keyring, {
      workspaceId: theirs,
      fullName: theirRepo,
      connectionId: theirApp,
    });
    await seedTriggerJob(db, {
      workspaceId: mine,
      repositoryId,
      key: "fix",
      triggers: { comment_command: { bots: true } },
    });
    const myHook = `${web.base}/webhooks/github-app/${myApp}`;
    const comment = (over: Partial<Parameters<typeof issueCommentPayload>[0]> = {}) =>
      issueCommentPayload({
        repository: fullName,
        installationId: 901,
        body: "/secondshift fix",
        ...over,
      });

    expect(await deliver(myHook, appSecret, "ping", { zen: "hi" })).toEqual({
      status: 200,
      message: "pong",
    });
    expect((await deliver(myHook, appSecret, "issue_comment", comment())).message).toBe(
      "Queued 1 run(s); dropped 0.",
    );
    // Their installation, or their repository, on my hook; my delivery signed with their secret.
    expect(
      (await deliver(myHook, appSecret, "issue_comment", comment({ installationId: 902 }))).status,
    ).toBe(403);
    expect(
      (await deliver(myHook, appSecret, "issue_comment", comment({ repository: theirRepo })))
        .status,
    ).toBe(404);
    expect((await deliver(myHook, theirSecret, "issue_comment", comment())).status).toBe(401);
    // My repository through their connection.
    const theirHook = `${web.base}/webhooks/github-app/${theirApp}`;
    expect(
      (await deliver(theirHook, theirSecret, "issue_comment", comment({ installationId: 902 })))
        .status,
    ).toBe(404);
    // [E03] our own App's comment (the trigger takes bots): nothing queued, a dropped row.
    const own = comment({ sender: { login: "secondshift-mine[bot]", type: "Bot" }, viaAppId: 900 });
    expect((await deliver(myHook, appSecret, "issue_comment", own)).message).toBe(
      "Queued 0 run(s); dropped 1: fix (own_app).",
    );
    expect(await db.run.count({ where: { workspaceId: { in: [mine, theirs] } } })).toBe(1);
    // A push to the default branch through the App syncs the bound repository.
    const waiting = await queue.getWaitingCount();
    const push = {
      ref: "refs/heads/main",
      repository: { full_name: fullName },
      installation: { id: 901 },
    };
    expect((await deliver(myHook, appSecret, "push", push)).message).toBe("Sync started.");
    expect(await queue.getWaitingCount()).toBe(waiting + 1);
  });
});

import type { ServerResponse } from "node:http";
import { Registry } from "prom-client";
import { describe, expect, vi } from "vitest";
import type { Db } from "@secondshift/db";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { deliverDue, type DeliveryDeps } from "./deliver.ts";
import { claim, INTERRUPTED_ATTEMPT } from "./delivery-state.ts";
import { enqueueReports } from "./enqueue.ts";
import { createWebhookMetrics } from "./metrics.ts";
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from "./retry-schedule.ts";
import { verifySignature } from "./signature.ts";
import {
  createRun,
  createTenant,
  createWebhook,
  startReceiver,
  testKeyring,
  type Receiver,
} from "./testing/fixtures.ts";
import { deliveryTest } from "./testing/vitest.ts";

const keyring = testKeyring();
const t0 = new Date("2026-01-05T10:01:00.000Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

const test = deliveryTest
  /** Starts a loopback receiver (on `port`, or any free one); each is closed after the test. */
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("receiver", ({}, { onCleanup }) => {
    const started: Receiver[] = [];
    onCleanup(async () => {
      await Promise.all(started.map((r) => r.close()));
    });
    return async (port?: number) => {
      const r = await startReceiver(port);
      started.push(r);
      return r;
    };
  })
  /** Delivery deps over the file's client, logging into a memory sink. */
  .extend("makeDeps", ({ client }) => (overrides: Partial<DeliveryDeps> = {}) => {
    const sink = createMemorySink();
    const masker = new SecretMasker();
    const deps: DeliveryDeps = {
      keyring,
      client,
      masker,
      logger: createLogger({
        name: "webhooks-test",
        destination: sink.stream,
        masker,
        level: "debug",
      }),
      runLink: (run) => `https://secondshift.example.test/runs/${run.id}`,
      random: () => 0.5,
      ...overrides,
    };
    return { deps, sink };
  })
  /** A receiver, and a finished run of a new workspace whose webhook reports to it, queued. */
  .extend(
    "setup",
    ({ db, receiver }) =>
      async (
        options: { secret?: string; urlFor?: (port: number) => string; port?: number } = {},
      ) => {
        const r = await receiver();
        const port = options.port ?? r.port;
        const tenant = await createTenant(db);
        const secret = options.secret ?? "whsec_test_secret_abcdef0123456789";
        const url = options.urlFor?.(port) ?? `http://127.0.0.1:${port}/hooks/report`;
        const webhook = await createWebhook(db, keyring, tenant.workspaceId, { url, secret });
        const run = await createRun(db, tenant);
        await enqueueReports(db, { workspaceId: tenant.workspaceId, runId: run.id, now: t0 });
        const delivery = await db.webhookDelivery.findFirstOrThrow({
          where: { webhookId: webhook.id, runId: run.id },
        });
        return { receiver: r, tenant, webhook, run, delivery, secret, url };
      },
  );

const attemptsOf = (db: Db, deliveryId: string) =>
  db.webhookDeliveryAttempt.findMany({ where: { deliveryId }, orderBy: { createdAt: "asc" } });

describe("enqueueReports", () => {
  test("creates one delivery per matching enabled webhook (job key and status filters; empty = all), idempotently", async ({
    db,
  }) => {
    const tenant = await createTenant(db, "triage");
    const url = "http://127.0.0.1:9/x";
    const secret = "whsec_filter_secret_123456";
    const all = await createWebhook(db, keyring, tenant.workspaceId, { url, secret });
    const byJob = await createWebhook(db, keyring, tenant.workspaceId, {
      url,
      secret,
      jobKeys: ["triage"],
    });
    await createWebhook(db, keyring, tenant.workspaceId, { url, secret, jobKeys: ["other"] });
    const onFailure = await createWebhook(db, keyring, tenant.workspaceId, {
      url,
      secret,
      statuses: ["FAILED", "TIMED_OUT"],
    });
    await createWebhook(db, keyring, tenant.workspaceId, { url, secret, enabled: false });
    const ok = await createRun(db, tenant, { status: "SUCCEEDED" });
    const failed = await createRun(db, tenant, { status: "FAILED" });

    const first = await enqueueReports(db, {
      workspaceId: tenant.workspaceId,
      runId: ok.id,
      now: t0,
    });
    expect(first.created).toBe(2);
    expect(new Set(first.webhookIds)).toEqual(new Set([all.id, byJob.id]));
    expect(
      (await enqueueReports(db, { workspaceId: tenant.workspaceId, runId: ok.id, now: t0 }))
        .created,
    ).toBe(0);
    expect(await db.webhookDelivery.count({ where: { runId: ok.id } })).toBe(2);

    const second = await enqueueReports(db, {
      workspaceId: tenant.workspaceId,
      runId: failed.id,
      now: t0,
    });
    expect(new Set(second.webhookIds)).toEqual(new Set([all.id, byJob.id, onFailure.id]));
  });

  test("refuses unfinished runs and runs of another workspace", async ({ db }) => {
    const tenant = await createTenant(db);
    const other = await createTenant(db);
    const running = await createRun(db, tenant, { status: "RUNNING" });
    await expect(
      enqueueReports(db, { workspaceId: tenant.workspaceId, runId: running.id }),
    ).rejects.toMatchObject({ reason: "RUN_NOT_FINISHED" });
    const done = await createRun(db, tenant);
    await expect(
      enqueueReports(db, { workspaceId: other.workspaceId, runId: done.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("deliverDue", () => {
  // deliverDue serves every workspace: start each test with no other report pending.
  test.beforeEach(async ({ db }) => {
    await db.webhookDelivery.deleteMany({});
  });

  test("[P08] delivers once, signed: the receiver verifies the signature; later passes send nothing", async ({
    db,
    makeDeps,
    setup,
  }) => {
    const { receiver: r, delivery, secret, run } = await setup();
    const { deps } = makeDeps();
    expect(await deliverDue(db, deps, { now: t0 })).toMatchObject({ attempted: 1, delivered: 1 });
    expect(r.received).toHaveLength(1);
    const request = r.received[0]!;
    expect(request.headers["secondshift-event"]).toBe("run.finished");
    expect(request.headers["secondshift-delivery"]).toBe(delivery.id);
    expect(
      verifySignature(request.headers["secondshift-signature"] as string, request.body, secret, {
        now: t0,
      }).ok,
    ).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({
      run: { id: run.id, status: "succeeded" },
      job: { key: "nightly" },
    });

    expect(await deliverDue(db, deps, { now: at(3_600_000) })).toMatchObject({ attempted: 0 });
    expect(r.received).toHaveLength(1);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row).toMatchObject({
      status: "DELIVERED",
      attemptCount: 1,
      lastStatusCode: 200,
      nextAttemptAt: null,
    });
    expect(await attemptsOf(db, delivery.id)).toMatchObject([{ statusCode: 200, error: null }]);
  });

  test("receiver down, then up: retried with backoff and delivered exactly once", async ({
    db,
    makeDeps,
    setup,
    receiver,
  }) => {
    const down = await receiver();
    const port = down.port;
    await down.close(); // nothing listens on the port now
    const { delivery } = await setup({ port });
    const { deps } = makeDeps();

    expect(await deliverDue(db, deps, { now: t0 })).toMatchObject({ attempted: 1, retrying: 1 });
    let row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row.nextAttemptAt).toEqual(at(30_000));
    // Not due yet: nothing happens before the backoff has passed.
    expect(await deliverDue(db, deps, { now: at(29_000) })).toMatchObject({ attempted: 0 });
    expect(await deliverDue(db, deps, { now: at(30_000) })).toMatchObject({
      attempted: 1,
      retrying: 1,
    });
    row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row.nextAttemptAt).toEqual(at(90_000));

    const up = await receiver(port);
    expect(await deliverDue(db, deps, { now: at(90_000) })).toMatchObject({
      attempted: 1,
      delivered: 1,
    });
    expect(await deliverDue(db, deps, { now: at(10_000_000) })).toMatchObject({ attempted: 0 });
    expect(up.received).toHaveLength(1);
    const attempts = await attemptsOf(db, delivery.id);
    expect(attempts.map((a) => a.statusCode)).toEqual([null, null, 200]);
    expect(attempts[0]?.error).toMatch(/Could not connect to the receiver/);
  });

  test("records 4xx, 5xx, timeouts and redirects per attempt (redirects are not followed)", async ({
    db,
    makeDeps,
    setup,
  }) => {
    const { receiver: r, delivery } = await setup();
    const answers = [
      (res: ServerResponse) => res.writeHead(410).end("gone"),
      (res: ServerResponse) => res.writeHead(503).end("busy"),
      () => undefined, // never answers: the attempt times out
      (res: ServerResponse) =>
        res.writeHead(302, { location: `http://127.0.0.1:${r.port}/elsewhere` }).end(),
      (res: ServerResponse) => res.writeHead(204).end(),
    ];
    let n = 0;
    r.respond = (_req, res) => answers[n++]?.(res);
    const { deps } = makeDeps({ timeoutMs: 1_000 });
    let now = t0;
    for (const delay of [0, ...RETRY_DELAYS_MS.slice(0, 4)]) {
      now = new Date(now.getTime() + delay);
      expect((await deliverDue(db, deps, { now })).attempted).toBe(1);
    }
    const attempts = await attemptsOf(db, delivery.id);
    expect(attempts.map((a) => a.statusCode)).toEqual([410, 503, null, 302, 204]);
    expect(attempts[0]?.error).toBe("The receiver answered HTTP 410.");
    expect(attempts[2]?.error).toMatch(/did not answer in time/);
    expect(attempts[3]?.error).toMatch(/redirects are not followed/);
    expect(attempts.every((a) => a.durationMs >= 0)).toBe(true);
    expect(attempts[2]!.durationMs).toBeGreaterThanOrEqual(900);
    expect(r.received.map((q) => q.url)).not.toContain("/elsewhere");
    expect(
      await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }),
    ).toMatchObject({ status: "DELIVERED", attemptCount: 5 });
  });

  test("gives up after the schedule: FAILED, with every attempt visible and counted", async ({
    db,
    makeDeps,
    setup,
  }) => {
    const { receiver: r, delivery } = await setup();
    r.respond = (_req, res) => res.writeHead(500).end();
    const registry = new Registry();
    const { deps } = makeDeps({ metrics: createWebhookMetrics(registry) });
    let now = t0;
    for (const delay of [0, ...RETRY_DELAYS_MS]) {
      now = new Date(now.getTime() + delay);
      expect((await deliverDue(db, deps, { now })).attempted).toBe(1);
    }
    expect((now.getTime() - t0.getTime()) / 60_000).toBeCloseTo(61.5, 1);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row).toMatchObject({
      status: "FAILED",
      attemptCount: MAX_ATTEMPTS,
      nextAttemptAt: null,
      lastStatusCode: 500,
    });
    expect(await attemptsOf(db, delivery.id)).toHaveLength(MAX_ATTEMPTS);
    expect(await deliverDue(db, deps, { now: at(100 * 3_600_000) })).toMatchObject({
      attempted: 0,
    });
    expect(r.received).toHaveLength(MAX_ATTEMPTS);
    const text = await registry.metrics();
    expect(text).toContain(
      `secondshift_webhook_delivery_failures_total{final="false"} ${MAX_ATTEMPTS - 1}`,
    );
    expect(text).toContain('secondshift_webhook_delivery_failures_total{final="true"} 1');
  });

  test("concurrent processors deliver a report once", async ({ db, makeDeps, setup }) => {
    const { receiver: r, delivery } = await setup();
    // The receiver answers once the other three passes have ended, so all four run while the
    // report's request is open. A second request (a double delivery) would wait for passes that
    // cannot end: it is answered at the deadline, within the client's 2 s timeout, and counted.
    let ended = 0;
    r.respond = (_req, res) => {
      const answer = () => res.writeHead(200).end();
      void vi.waitUntil(() => ended >= 3, { timeout: 1_500, interval: 10 }).then(answer, answer);
    };
    const passes = await Promise.all(
      Array.from({ length: 4 }, () =>
        deliverDue(db, makeDeps().deps, { now: t0 }).finally(() => ended++),
      ),
    );
    expect(passes.reduce((n, p) => n + p.delivered, 0)).toBe(1);
    expect(r.received).toHaveLength(1);
    expect(await attemptsOf(db, delivery.id)).toHaveLength(1);
  });

  test("an attempt cut short by a worker's death stays in the history, and the report is sent again after its lease", async ({
    db,
    makeDeps,
    setup,
  }) => {
    const { receiver: r, delivery } = await setup();
    // A worker claims the delivery and dies before it records a result.
    const lease = 60_000;
    expect(await claim(db, delivery, t0, lease)).toMatchObject({ number: 1 });
    expect(await attemptsOf(db, delivery.id)).toMatchObject([{ error: INTERRUPTED_ATTEMPT }]);
    await deliverDue(db, makeDeps().deps, { now: new Date(t0.getTime() + lease) });
    expect(r.received).toHaveLength(1);
    const row = await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } });
    expect(row).toMatchObject({ status: "DELIVERED", attemptCount: 2 });
    expect(await attemptsOf(db, delivery.id)).toMatchObject([
      { error: INTERRUPTED_ATTEMPT, statusCode: null },
      { error: null, statusCode: 200 },
    ]);
  });

  test("a disabled webhook's pending delivery is abandoned, not sent", async ({
    db,
    makeDeps,
    setup,
  }) => {
    const { receiver: r, webhook, delivery } = await setup();
    await db.webhook.update({ where: { id: webhook.id }, data: { enabled: false } });
    await deliverDue(db, makeDeps().deps, { now: t0 });
    expect(r.received).toHaveLength(0);
    expect(
      await db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } }),
    ).toMatchObject({ status: "FAILED" });
  });
});

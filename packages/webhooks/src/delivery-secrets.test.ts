import type { ServerResponse } from "node:http";
import { describe, expect } from "vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { deliverDue, type DeliveryDeps } from "./deliver.ts";
import { enqueueReports } from "./enqueue.ts";
import { RETRY_DELAYS_MS } from "./retry-schedule.ts";
import { verifySignature } from "./signature.ts";
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

describe("webhook URL and secret stay inside the delivery call", () => {
  test("[C27] the URL and secret never appear in logs, attempts' error text or the body, whatever the outcome", async ({
    db,
    client,
  }) => {
    const urlToken = "planted-url-path-token-7f3a9c";
    const queryToken = "planted-query-key-41b2d8";
    const secret = "whsec_planted_signing_secret_c27_5e1d";
    const r = await startReceiver();
    const url = `http://127.0.0.1:${r.port}/hooks/${urlToken}?key=${queryToken}`;
    const tenant = await createTenant(db);
    const webhook = await createWebhook(db, keyring, tenant.workspaceId, { url, secret });
    // Even if the run's own text somehow held them, the body must not carry them.
    const run = await createRun(db, tenant, {
      summary: `echo ${url} ${secret}`,
      status: "FAILED",
      error: `failed near ${secret}`,
    });
    await enqueueReports(db, { workspaceId: tenant.workspaceId, runId: run.id, now: t0 });

    const sink = createMemorySink();
    const masker = new SecretMasker();
    const deps: DeliveryDeps = {
      keyring,
      client,
      masker,
      logger: createLogger({ name: "c27", destination: sink.stream, masker, level: "debug" }),
      runLink: (x) => `https://secondshift.example.test/runs/${x.id}`,
      random: () => 0.5,
      timeoutMs: 1_000,
    };

    // 500, timeout, connection refused, then success: every path that writes an error.
    const answers = [
      (res: ServerResponse) => res.writeHead(500).end(`echo ${url}`),
      () => undefined,
    ];
    let n = 0;
    r.respond = (_req, res) => {
      const answer = answers[n++];
      if (answer) answer(res);
      else res.writeHead(200).end();
    };
    let now = t0;
    await deliverDue(db, deps, { now });
    now = new Date(now.getTime() + RETRY_DELAYS_MS[0]!);
    await deliverDue(db, deps, { now });
    await r.close();
    now = new Date(now.getTime() + RETRY_DELAYS_MS[1]!);
    await deliverDue(db, deps, { now });
    const up = await startReceiver(r.port);
    now = new Date(now.getTime() + RETRY_DELAYS_MS[2]!);
    expect((await deliverDue(db, deps, { now })).delivered).toBe(1);
    await up.close();

    const delivery = await db.webhookDelivery.findFirstOrThrow({
      where: { webhookId: webhook.id },
    });
    const attempts = await db.webhookDeliveryAttempt.findMany({
      where: { deliveryId: delivery.id },
    });
    expect(attempts.map((a) => a.statusCode)).toEqual([500, null, null, 200]);
    await new Promise((resolve) => setImmediate(resolve));
    const logs = sink.text();
    expect(sink.lines().filter((l) => l.includes("webhook delivery attempt"))).toHaveLength(4);
    const received = [...r.received, ...up.received];
    const surfaces = {
      logs,
      errors: JSON.stringify(attempts.map((a) => a.error)),
      lastError: String(delivery.lastError),
      bodies: JSON.stringify(received.map((q) => q.body)),
    };
    for (const [where, text] of Object.entries(surfaces)) {
      for (const planted of [urlToken, queryToken, secret, url]) {
        expect(text, `${planted} in ${where}`).not.toContain(planted);
      }
    }
    // Still a correctly signed report (the secret was used, just never written anywhere).
    const last = up.received[0]!;
    expect(
      verifySignature(last.headers["secondshift-signature"] as string, last.body, secret, { now })
        .ok,
    ).toBe(true);
    // [P02] Masked during each attempt only: the worker's masker keeps nothing afterwards.
    expect(masker.size).toBe(0);
  });
});

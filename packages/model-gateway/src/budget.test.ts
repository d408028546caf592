// [C17] the budget cannot be overspent: concurrent and streamed requests reserve atomically in
// PostgreSQL, output bounds are capped to what remains, and a run that has used its budget is
// marked BUDGET_EXHAUSTED, its token revoked, and refused with 402 from then on.
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect } from "vitest";
import { createDatabase } from "@secondshift/db";
import { seedRun, startTestGateway } from "./testing/fixtures.ts";
import { gatewayTest } from "./testing/gateway-test.ts";

// A generous upstream timeout: on a loaded machine a timed-out call is (rightly) charged its
// reservation, which would make the exact comparison with the provider's bill meaningless.
const limits = { maxParallelPerRun: 100, upstreamTimeoutMs: 60_000 };

const test = gatewayTest()
  .extend(
    "newRun",
    { scope: "file" },
    ({ db, gw, provider }) =>
      (budget: number) =>
        seedRun(db, gw.keyring, {
          baseUrl: provider.url,
          providerKey: "sk-budget-key-0123456789",
          budget,
        }),
  )
  // Two more instances with a parallel limit high enough that only the budget constrains: two
  // gateways must agree through PostgreSQL alone. Each has its own connections, as two gateway
  // processes would.
  .extend("wide", { scope: "file" }, async ({ testDatabase }, { onCleanup }) => {
    const wide = await startTestGateway(testDatabase, { limits });
    onCleanup(() => wide.close());
    return wide;
  })
  .extend("wide2", { scope: "file" }, async ({ testDatabase, wide }, { onCleanup }) => {
    const second = createDatabase(testDatabase.url, { maxConnections: 5 });
    const wide2 = await startTestGateway(second, { limits, keyring: wide.keyring });
    onCleanup(async () => {
      await wide2.close();
      await second.close();
    });
    return wide2;
  });

const messages = [{ role: "user", content: "Fix the failing test in src/app.ts" }];
const post = (base: string, token: string, body: Record<string, unknown>, signal?: AbortSignal) =>
  fetch(`${base}/v1/messages`, {
    method: "POST",
    signal,
    headers: { "x-api-key": token, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("budget", () => {
  test("[C17] 50 concurrent requests (half streamed, two gateway instances) never exceed a small budget", async ({
    db,
    provider,
    wide,
    wide2,
  }) => {
    const budget = 1500;
    const run = await seedRun(db, wide.keyring, {
      baseUrl: provider.url,
      providerKey: "sk-budget-key-0123456789",
      budget,
    });
    const billedBefore = provider.billed.length;
    const requestsBefore = provider.requests.length;
    const results = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const res = await post(i % 4 < 2 ? wide.url : wide2.url, run.token, {
          model: "scripted",
          max_tokens: 60,
          messages,
          stream: i % 2 === 0,
        });
        await res.text();
        return res.status;
      }),
    );
    await Promise.all([wide.gateway.settled(), wide2.gateway.settled()]);
    const row = await db.run.findUniqueOrThrow({ where: { id: run.runId } });
    const billed = provider.billed
      .slice(billedBefore)
      .reduce((s, u) => s + u.input + u.output + u.cacheRead + u.cacheWrite, 0);
    expect(row.tokensUsed).toBeLessThanOrEqual(budget);
    expect(row.tokensUsed).toBe(billed);
    expect([row.tokensReserved, row.gatewayInFlight]).toEqual([0, 0]);
    const ok = results.filter((s) => s === 200).length;
    expect(ok).toBe(provider.requests.length - requestsBefore);
    expect(ok).toBeGreaterThan(0);
    expect(results.every((s) => s === 200 || s === 402 || s === 429)).toBe(true);
    // Every request the provider saw had its output bound within the budget it reserved.
    for (const r of provider.requests.slice(requestsBefore))
      expect(Number(r.body.max_tokens)).toBeLessThanOrEqual(60);
  });

  test("[C17] max_tokens is capped to the remaining budget", async ({ gw, provider, newRun }) => {
    const run = await newRun(400);
    const body = { model: "scripted", max_tokens: 5000, messages };
    const res = await post(gw.url, run.token, body);
    expect(res.status).toBe(200);
    const estimate = Math.ceil(Buffer.byteLength(JSON.stringify(body)) / 3);
    expect(provider.requests.at(-1)?.body.max_tokens).toBe(400 - estimate);
  });

  test("[C17] a used-up budget marks the run BUDGET_EXHAUSTED, revokes its token and answers 402", async ({
    db,
    gw,
    provider,
    newRun,
  }) => {
    provider.outputTokens = 100;
    try {
      const run = await newRun(300);
      const client = new Anthropic({ apiKey: run.token, baseURL: gw.url, maxRetries: 0 });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const r = await client.messages
          .create({
            model: "scripted",
            max_tokens: 100,
            messages: [{ role: "user", content: "go on" }],
          })
          .then(
            () => 200,
            (e: { status?: number }) => e.status ?? 0,
          );
        statuses.push(r);
        await gw.gateway.settled();
      }
      expect(statuses[0]).toBe(200);
      expect(statuses.at(-1)).toBe(402);
      const row = await db.run.findUniqueOrThrow({ where: { id: run.runId } });
      expect(row.status).toBe("BUDGET_EXHAUSTED");
      expect(row.tokensUsed).toBeLessThanOrEqual(300);
      const tokens = await db.runToken.findMany({ where: { runId: run.runId } });
      expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
      const before = provider.requests.length;
      const later = await post(gw.url, run.token, { model: "scripted", max_tokens: 10, messages });
      expect(later.status).toBe(402);
      expect(await later.json()).toMatchObject({
        error: { code: "PAYMENT_REQUIRED", reason: "BUDGET_EXHAUSTED" },
      });
      expect(provider.requests.length).toBe(before);
    } finally {
      provider.outputTokens = 20;
    }
  });

  test("[C17] output that takes the whole remaining budget stays within it, and the next request is refused", async ({
    db,
    gw,
    provider,
    newRun,
  }) => {
    const run = await newRun(200);
    provider.outputTokens = 1000;
    try {
      // The provider is told max_tokens = what remains, and uses all of it.
      const res = await post(gw.url, run.token, { model: "scripted", max_tokens: 1000, messages });
      expect(res.status).toBe(200);
      await gw.gateway.settled();
      const row = await db.run.findUniqueOrThrow({ where: { id: run.runId } });
      expect(row.tokensUsed).toBeLessThanOrEqual(200);
      const next = await post(gw.url, run.token, { model: "scripted", max_tokens: 1000, messages });
      expect(next.status).toBe(402);
      expect((await db.run.findUniqueOrThrow({ where: { id: run.runId } })).status).toBe(
        "BUDGET_EXHAUSTED",
      );
    } finally {
      provider.outputTokens = 20;
    }
  });

  test("[C17] the per-run parallel limit refuses the request past the limit with 429", async ({
    db,
    gw,
    provider,
    newRun,
  }) => {
    const run = await newRun(100_000);
    const controller = new AbortController();
    const open = await Promise.all(
      Array.from({ length: 4 }, () =>
        post(
          gw.url,
          run.token,
          { model: "hang", max_tokens: 10, messages, stream: true },
          controller.signal,
        ),
      ),
    );
    expect(open.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const before = provider.requests.length;
    const fifth = await post(gw.url, run.token, { model: "scripted", max_tokens: 10, messages });
    expect(fifth.status).toBe(429);
    expect(await fifth.json()).toMatchObject({ error: { reason: "RUN_PARALLEL_LIMIT" } });
    expect(provider.requests.length).toBe(before);
    controller.abort();
    await expect
      .poll(
        async () => (await db.run.findUniqueOrThrow({ where: { id: run.runId } })).gatewayInFlight,
        { timeout: 2000 },
      )
      .toBe(0);
    expect(
      (await post(gw.url, run.token, { model: "scripted", max_tokens: 10, messages })).status,
    ).toBe(200);
  });
});

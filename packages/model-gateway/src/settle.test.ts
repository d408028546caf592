// [C17] A finished request is settled right after its response has gone out: its reservation
// is released, its usage charged, and a run that has now used its budget is ended at once, so
// that no gateway instance admits it again.
import type { Db } from "@secondshift/db";
import { describe, expect } from "vitest";
import { seedRun } from "./testing/fixtures.ts";
import { gatewayTest } from "./testing/gateway-test.ts";
import type { Usage } from "./testing/wire-formats.ts";

const test = gatewayTest().extend(
  "newRun",
  { scope: "file" },
  ({ db, gw, provider }) =>
    (budget: number) =>
      seedRun(db, gw.keyring, {
        baseUrl: provider.url,
        providerKey: "sk-settle-key-0123456789",
        budget,
      }),
);

const messages = [{ role: "user", content: "Explain the flaky test." }];
const post = (gatewayUrl: string, token: string, maxTokens: number) =>
  fetch(`${gatewayUrl}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": token, "content-type": "application/json" },
    body: JSON.stringify({ model: "scripted", max_tokens: maxTokens, messages }),
  });
const total = (u: Usage) => u.input + u.output + u.cacheRead + u.cacheWrite;
const row = (db: Db, id: string) => db.run.findUniqueOrThrow({ where: { id } });

describe("settlement", () => {
  test("[C17] a finished request's charge is written on its own, with no later request needed", async ({
    db,
    gw,
    provider,
    newRun,
  }) => {
    const run = await newRun(100_000);
    const res = await post(gw.url, run.token, 50);
    expect(res.status).toBe(200);
    await res.text();
    const bill = total(provider.billed.at(-1)!);
    // No other request follows: the settlement does not wait for one.
    await expect
      .poll(async () => (await row(db, run.runId)).tokensUsed, { timeout: 2_000, interval: 20 })
      .toBe(bill);
    const settled = await row(db, run.runId);
    expect([settled.tokensReserved, settled.gatewayInFlight]).toEqual([0, 0]);
    expect(settled.status).toBe("RUNNING");
  });

  test("[C17] consecutive requests are each charged exactly what the provider billed", async ({
    db,
    gw,
    provider,
    newRun,
  }) => {
    const run = await newRun(100_000);
    let billed = 0;
    for (let i = 0; i < 3; i += 1) {
      const res = await post(gw.url, run.token, 50);
      expect(res.status).toBe(200);
      await res.text();
      billed += total(provider.billed.at(-1)!);
    }
    await gw.gateway.settled();
    const done = await row(db, run.runId);
    expect([done.tokensUsed, done.tokensReserved, done.gatewayInFlight]).toEqual([billed, 0, 0]);
  });

  test("[C17] the charge that uses up the budget ends the run at once: status, revoked token, 402 next", async ({
    db,
    gw,
    provider,
    newRun,
  }) => {
    const run = await newRun(200);
    // A stream the client gives up on is charged its whole reservation: here, all that is left.
    const controller = new AbortController();
    const open = await fetch(`${gw.url}/v1/messages`, {
      method: "POST",
      signal: controller.signal,
      headers: { "x-api-key": run.token, "content-type": "application/json" },
      body: JSON.stringify({ model: "hang", max_tokens: 1000, messages, stream: true }),
    });
    expect(open.status).toBe(200);
    controller.abort();
    await expect
      .poll(async () => (await row(db, run.runId)).status, { timeout: 2_000, interval: 20 })
      .toBe("BUDGET_EXHAUSTED");
    await gw.gateway.settled();
    const exhausted = await row(db, run.runId);
    expect([exhausted.tokensUsed, exhausted.tokensReserved, exhausted.gatewayInFlight]).toEqual([
      200, 0, 0,
    ]);
    const tokens = await db.runToken.findMany({ where: { runId: run.runId } });
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    const before = provider.requests.length;
    const next = await post(gw.url, run.token, 10);
    expect(next.status).toBe(402);
    expect(await next.json()).toMatchObject({ error: { reason: "BUDGET_EXHAUSTED" } });
    expect(provider.requests.length).toBe(before);
  });
});

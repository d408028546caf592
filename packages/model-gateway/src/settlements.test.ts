// [C17] A finished request's charge waits briefly and is written with the run's next admission
// (one round trip instead of two); one nobody picks up is written on its own. Either way the
// budget stays exact and cannot be overspent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { seedRun, startTestGateway, type TestGateway } from "./testing/fixtures.ts";
import { startScriptedProvider, type ScriptedProvider } from "./testing/scripted-provider.ts";
import type { Usage } from "./testing/wire-formats.ts";

let tdb: TestDatabase;
let provider: ScriptedProvider;
/** Settlements wait a minute here: whatever is written before that came with an admission. */
let patient: TestGateway;
let prompt: TestGateway;

beforeAll(async () => {
  tdb = await createTestDatabase();
  provider = await startScriptedProvider();
  patient = await startTestGateway(tdb.db, {
    poolUrl: tdb.url,
    limits: { settleDelayMs: 60_000 },
  });
  prompt = await startTestGateway(tdb.db, {
    poolUrl: tdb.url,
    keyring: patient.keyring,
    limits: { settleDelayMs: 50 },
  });
});
afterAll(async () => {
  await patient.close();
  await prompt.close();
  await provider.close();
  await tdb.drop();
});

const seed = (budget: number) =>
  seedRun(tdb.db, patient.keyring, {
    baseUrl: provider.url,
    providerKey: "sk-settle-key-0123456789",
    budget,
  });
const messages = [{ role: "user", content: "Explain the flaky test." }];
const post = (base: string, token: string, maxTokens: number) =>
  fetch(`${base}/v1/messages`, {
    method: "POST",
    headers: { "x-api-key": token, "content-type": "application/json" },
    body: JSON.stringify({ model: "scripted", max_tokens: maxTokens, messages }),
  });
const total = (u: Usage) => u.input + u.output + u.cacheRead + u.cacheWrite;
const row = (id: string) => tdb.db.run.findUniqueOrThrow({ where: { id } });

describe("settlements", () => {
  it("[C17] a finished request's charge is written with the run's next admission", async () => {
    const run = await seed(100_000);
    const first = await post(patient.url, run.token, 50);
    expect(first.status).toBe(200);
    await first.text();
    const firstBill = total(provider.billed.at(-1)!);
    // Not written yet: its reservation still counts, so the budget stays safe meanwhile.
    const waiting = await row(run.runId);
    expect([waiting.tokensUsed, waiting.gatewayInFlight]).toEqual([0, 1]);
    expect(waiting.tokensReserved).toBeGreaterThan(50);

    const second = await post(patient.url, run.token, 50);
    expect(second.status).toBe(200);
    await second.text();
    const secondBill = total(provider.billed.at(-1)!);
    const between = await row(run.runId);
    expect([between.tokensUsed, between.gatewayInFlight]).toEqual([firstBill, 1]);

    await patient.gateway.settled();
    const done = await row(run.runId);
    expect([done.tokensUsed, done.tokensReserved, done.gatewayInFlight]).toEqual([
      firstBill + secondBill,
      0,
      0,
    ]);
  });

  it("[C17] a charge no admission picks up is written on its own after the delay", async () => {
    const run = await seed(100_000);
    const res = await post(prompt.url, run.token, 50);
    await res.text();
    const bill = total(provider.billed.at(-1)!);
    await expect
      .poll(async () => (await row(run.runId)).tokensUsed, { timeout: 2_000, interval: 20 })
      .toBe(bill);
    const settled = await row(run.runId);
    expect([settled.tokensReserved, settled.gatewayInFlight]).toEqual([0, 0]);
  });

  it("[C17] the charge that uses up the budget, written with the next admission, refuses that admission with 402", async () => {
    const run = await seed(200);
    provider.outputTokens = 1000;
    try {
      const first = await post(patient.url, run.token, 1000);
      expect(first.status).toBe(200);
      await first.text();
      const before = provider.requests.length;
      const next = await post(patient.url, run.token, 10);
      expect(next.status).toBe(402);
      expect(await next.json()).toMatchObject({ error: { reason: "BUDGET_EXHAUSTED" } });
      expect(provider.requests.length).toBe(before);
      const exhausted = await row(run.runId);
      expect(exhausted.status).toBe("BUDGET_EXHAUSTED");
      expect(exhausted.tokensUsed).toBeLessThanOrEqual(200);
      expect([exhausted.tokensReserved, exhausted.gatewayInFlight]).toEqual([0, 0]);
      const tokens = await tdb.db.runToken.findMany({ where: { runId: run.runId } });
      expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    } finally {
      provider.outputTokens = 20;
    }
  });
});

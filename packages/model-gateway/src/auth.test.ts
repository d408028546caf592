// [C15] run-token authentication and [C16] the path allowlist: every refusal happens before any
// upstream request, which the scripted provider's request log proves.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { seedRun, startTestGateway, type TestGateway } from "./testing/fixtures.ts";
import { startScriptedProvider, type ScriptedProvider } from "./testing/scripted-provider.ts";

const KEY = "sk-ant-planted-auth-key-0123456789";
let tdb: TestDatabase;
let provider: ScriptedProvider;
let gw: TestGateway;

beforeAll(async () => {
  tdb = await createTestDatabase();
  provider = await startScriptedProvider();
  gw = await startTestGateway(tdb);
});
afterAll(async () => {
  await gw.close();
  await provider.close();
  await tdb.drop();
});

const seed = (o: Partial<Parameters<typeof seedRun>[2]> = {}) =>
  seedRun(tdb.db, gw.keyring, { baseUrl: provider.url, providerKey: KEY, ...o });
const anthropic = (token: string) =>
  new Anthropic({ apiKey: token, baseURL: gw.url, maxRetries: 0 });
const ask = (token: string) =>
  anthropic(token).messages.create({
    model: "scripted",
    max_tokens: 50,
    messages: [{ role: "user", content: "hi" }],
  });

async function expectRefused(call: Promise<unknown>, status: number, reason: string) {
  const before = provider.requests.length;
  const error = (await call.then(
    () => null,
    (e: unknown) => e,
  )) as { status?: number; error?: { error?: { reason?: string } } } | null;
  expect(error?.status).toBe(status);
  expect(JSON.stringify(error?.error)).toContain(reason);
  expect(provider.requests.length).toBe(before);
}

describe("run token", () => {
  it("[C15] a valid token of a running run reaches the provider (Anthropic SDK, x-api-key)", async () => {
    const run = await seed();
    const msg = await ask(run.token);
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
    expect(provider.requests.at(-1)?.path).toBe("/v1/messages");
  });

  it("[C15] the OpenAI SDK's Authorization: Bearer works too, via the workspace default provider", async () => {
    const run = await seed({ kind: "OPENAI", viaDefault: true });
    const openai = new OpenAI({ apiKey: run.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const res = await openai.chat.completions.create({
      model: "scripted",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(res.usage?.completion_tokens).toBeGreaterThan(0);
  });

  it("[C15] a bad token gets 401 and no upstream call", async () => {
    await seed();
    await expectRefused(ask("ss_run_" + "A".repeat(43)), 401, "RUN_TOKEN_INVALID");
    await expectRefused(ask("not-a-token"), 401, "RUN_TOKEN_INVALID");
    const before = provider.requests.length;
    const res = await fetch(`${gw.url}/v1/messages`, { method: "POST", body: "{}" });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({
      error: { code: "UNAUTHORIZED", reason: "RUN_TOKEN_INVALID" },
    });
    expect(provider.requests.length).toBe(before);
  });

  it("[C15] an expired token gets 401 and no upstream call", async () => {
    const run = await seed({ tokenExpiresAt: new Date(Date.now() - 1000) });
    await expectRefused(ask(run.token), 401, "RUN_TOKEN_INVALID");
  });

  it("[C15] a revoked token gets 401 and no upstream call", async () => {
    const run = await seed({ tokenRevoked: true });
    await expectRefused(ask(run.token), 401, "RUN_TOKEN_INVALID");
  });

  it("[C15] a finished run's token gets 401 and no upstream call", async () => {
    for (const status of [
      "SUCCEEDED",
      "FAILED",
      "CANCELLED",
      "QUEUED",
      "TIMED_OUT",
      "REVOKED",
    ] as const) {
      const run = await seed({ status });
      await expectRefused(ask(run.token), 401, "RUN_TOKEN_INVALID");
    }
  });

  it("[C15] a token stops working as soon as its run finishes", async () => {
    const run = await seed();
    await ask(run.token);
    await tdb.db.run.update({ where: { id: run.runId }, data: { status: "SUCCEEDED" } });
    await expectRefused(ask(run.token), 401, "RUN_TOKEN_INVALID");
  });

  it("[C15] only the token's hash is stored", async () => {
    const run = await seed();
    const rows = await tdb.db.runToken.findMany({ where: { runId: run.runId } });
    expect(JSON.stringify(rows)).not.toContain(run.token.slice(7));
    expect(Buffer.from(rows[0]!.tokenHash).length).toBe(32);
  });
});

describe("path allowlist", () => {
  it("[C16] unlisted paths and methods get 404 with no upstream call", async () => {
    const run = await seed();
    const before = provider.requests.length;
    const attempts: Array<[string, string]> = [
      ["GET", "/v1/models"],
      ["POST", "/v1/models"],
      ["POST", "/v1/complete"],
      ["POST", "/v1/embeddings"],
      ["POST", "/v1/messages/batches"],
      ["POST", "/v1/messages/"],
      ["POST", "/v1//messages"],
      ["POST", "/v1/messages/../files"],
      ["POST", "/v1/%6Dessages"],
      ["POST", "/V1/messages"],
      ["GET", "/v1/messages"],
      ["PUT", "/v1/chat/completions"],
      ["DELETE", "/v1/responses"],
      ["POST", "/v1/responses/resp_1/cancel"],
      ["POST", "/"],
    ];
    for (const [method, path] of attempts) {
      const res = await fetch(`${gw.url}${path}`, {
        method,
        headers: { "x-api-key": run.token, "content-type": "application/json" },
        body: method === "GET" ? undefined : "{}",
      });
      expect([method, path, res.status]).toEqual([method, path, 404]);
      expect(((await res.json()) as { error: { reason: string } }).error.reason).toBe(
        "PATH_NOT_ALLOWED",
      );
    }
    expect(provider.requests.length).toBe(before);
  });

  it("[C16] a listed path of the other provider family is refused without an upstream call", async () => {
    const run = await seed({ kind: "ANTHROPIC" });
    const openai = new OpenAI({ apiKey: run.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    await expectRefused(
      openai.chat.completions.create({
        model: "scripted",
        messages: [{ role: "user", content: "x" }],
      }),
      404,
      "PATH_NOT_FOR_PROVIDER",
    );
    await gw.gateway.settled();
    const after = await tdb.db.run.findUniqueOrThrow({ where: { id: run.runId } });
    expect([after.tokensReserved, after.gatewayInFlight, after.tokensUsed]).toEqual([0, 0, 0]);
  });

  it("[C16] count_tokens is forwarded and not charged", async () => {
    const run = await seed();
    const res = await anthropic(run.token).messages.countTokens({
      model: "scripted",
      messages: [{ role: "user", content: "hello" }],
    });
    expect(res.input_tokens).toBeGreaterThan(0);
    await gw.gateway.settled();
    const after = await tdb.db.run.findUniqueOrThrow({ where: { id: run.runId } });
    expect([after.tokensUsed, after.tokensReserved, after.gatewayInFlight]).toEqual([0, 0, 0]);
  });
});

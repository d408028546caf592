// [C15] run-token authentication and [C16] the path allowlist: every refusal happens before any
// upstream request, which the scripted provider's request log proves.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect } from "vitest";
import { seedRun } from "./testing/fixtures.ts";
import { gatewayTest } from "./testing/gateway-test.ts";

const KEY = "sk-ant-planted-auth-key-0123456789";

const anthropic = (gatewayUrl: string, token: string) =>
  new Anthropic({ apiKey: token, baseURL: gatewayUrl, maxRetries: 0 });

const test = gatewayTest()
  .extend(
    "newRun",
    { scope: "file" },
    ({ db, gw, provider }) =>
      (o: Partial<Parameters<typeof seedRun>[2]> = {}) =>
        seedRun(db, gw.keyring, { baseUrl: provider.url, providerKey: KEY, ...o }),
  )
  .extend(
    "ask",
    { scope: "file" },
    ({ gw }) =>
      (token: string) =>
        anthropic(gw.url, token).messages.create({
          model: "scripted",
          max_tokens: 50,
          messages: [{ role: "user", content: "hi" }],
        }),
  )
  .extend(
    "expectRefused",
    { scope: "file" },
    ({ provider }) =>
      async (call: Promise<unknown>, status: number, reason: string) => {
        const before = provider.requests.length;
        const error = (await call.then(
          () => null,
          (e: unknown) => e,
        )) as { status?: number; error?: { error?: { reason?: string } } } | null;
        expect(error?.status).toBe(status);
        expect(JSON.stringify(error?.error)).toContain(reason);
        expect(provider.requests.length).toBe(before);
      },
  );

describe("run token", () => {
  test("[C15] a valid token of a running run reaches the provider (Anthropic SDK, x-api-key)", async ({
    provider,
    newRun,
    ask,
  }) => {
    const run = await newRun();
    const msg = await ask(run.token);
    expect(msg.usage.output_tokens).toBeGreaterThan(0);
    expect(provider.requests.at(-1)?.path).toBe("/v1/messages");
  });

  test("[C15] the OpenAI SDK's Authorization: Bearer works too, via the workspace default provider", async ({
    gw,
    newRun,
  }) => {
    const run = await newRun({ kind: "OPENAI", viaDefault: true });
    const openai = new OpenAI({ apiKey: run.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    const res = await openai.chat.completions.create({
      model: "scripted",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(res.usage?.completion_tokens).toBeGreaterThan(0);
  });

  test("[C15] a bad token gets 401 and no upstream call", async ({
    gw,
    provider,
    newRun,
    ask,
    expectRefused,
  }) => {
    await newRun();
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

  test("[C15] an expired token gets 401 and no upstream call", async ({
    newRun,
    ask,
    expectRefused,
  }) => {
    const run = await newRun({ tokenExpiresAt: new Date(Date.now() - 1000) });
    await expectRefused(ask(run.token), 401, "RUN_TOKEN_INVALID");
  });

  test("[C15] a revoked token gets 401 and no upstream call", async ({
    newRun,
    ask,
    expectRefused,
  }) => {
    const run = await newRun({ tokenRevoked: true });
    await expectRefused(ask(run.token), 401, "RUN_TOKEN_INVALID");
  });

  test("[C15] a finished run's token gets 401 and no upstream call", async ({
    newRun,
    ask,
    expectRefused,
  }) => {
    for (const status of [
      "SUCCEEDED",
      "FAILED",
      "CANCELLED",
      "QUEUED",
      "TIMED_OUT",
      "REVOKED",
    ] as const) {
      const run = await newRun({ status });
      await expectRefused(ask(run.token), 401, "RUN_TOKEN_INVALID");
    }
  });

  test("[C15] a token stops working as soon as its run finishes", async ({
    db,
    newRun,
    ask,
    expectRefused,
  }) => {
    const run = await newRun();
    await ask(run.token);
    await db.run.update({ where: { id: run.runId }, data: { status: "SUCCEEDED" } });
    await expectRefused(ask(run.token), 401, "RUN_TOKEN_INVALID");
  });

  test("[C15] only the token's hash is stored", async ({ db, newRun }) => {
    const run = await newRun();
    const rows = await db.runToken.findMany({ where: { runId: run.runId } });
    expect(JSON.stringify(rows)).not.toContain(run.token.slice(7));
    expect(Buffer.from(rows[0]!.tokenHash).length).toBe(32);
  });
});

describe("path allowlist", () => {
  test("[C16] unlisted paths and methods get 404 with no upstream call", async ({
    gw,
    provider,
    newRun,
  }) => {
    const run = await newRun();
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

  test("[C16] a listed path of the other provider family is refused without an upstream call", async ({
    db,
    gw,
    newRun,
    expectRefused,
  }) => {
    const run = await newRun({ kind: "ANTHROPIC" });
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
    const after = await db.run.findUniqueOrThrow({ where: { id: run.runId } });
    expect([after.tokensReserved, after.gatewayInFlight, after.tokensUsed]).toEqual([0, 0, 0]);
  });

  test("[C16] count_tokens is forwarded and not charged", async ({ db, gw, newRun }) => {
    const run = await newRun();
    const res = await anthropic(gw.url, run.token).messages.countTokens({
      model: "scripted",
      messages: [{ role: "user", content: "hello" }],
    });
    expect(res.input_tokens).toBeGreaterThan(0);
    await gw.gateway.settled();
    const after = await db.run.findUniqueOrThrow({ where: { id: run.runId } });
    expect([after.tokensUsed, after.tokensReserved, after.gatewayInFlight]).toEqual([0, 0, 0]);
  });
});

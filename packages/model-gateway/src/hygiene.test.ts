// [C24] [C14] [P04] the provider key is decrypted only here, added only to the upstream request,
// and appears in no response body, header, log line or error; the client's own credential never
// reaches the provider. Provider 4xx/5xx and timeouts come back as clean JSON errors.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect } from "vitest";
import { seedRun } from "./testing/fixtures.ts";
import { gatewayTest } from "./testing/gateway-test.ts";

const PLANTED = "sk-ant-PLANTED-provider-key-7f3a9c1e5b";
/** Everything a client saw in this file (response bodies, headers, SDK errors). */
const seen: string[] = [];

const test = gatewayTest()
  .extend(
    "newRun",
    { scope: "file" },
    ({ db, gw, provider }) =>
      (kind: "ANTHROPIC" | "OPENAI") =>
        seedRun(db, gw.keyring, { kind, baseUrl: provider.url, providerKey: PLANTED }),
  )
  /** Sends a raw request and keeps everything the client could see. */
  .extend(
    "raw",
    { scope: "file" },
    ({ gw }) =>
      async (path: string, headers: Record<string, string>, body: Record<string, unknown>) => {
        const res = await fetch(`${gw.url}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...headers },
          body: JSON.stringify(body),
        });
        const text = await res.text().catch((e: unknown) => String(e));
        seen.push(text, JSON.stringify([...res.headers]));
        return { status: res.status, text, headers: res.headers };
      },
  );

describe("provider key and client credentials", () => {
  test("[C24] the provider gets the decrypted key (x-api-key for Anthropic, Bearer for OpenAI) and never the run token", async ({
    provider,
    newRun,
    raw,
  }) => {
    const a = await newRun("ANTHROPIC");
    await raw(
      "/v1/messages",
      {
        "x-api-key": a.token,
        authorization: `Bearer ${a.token}`,
        "anthropic-version": "2023-06-01",
        cookie: "c=1",
      },
      { model: "scripted", max_tokens: 10, messages: [{ role: "user", content: "x" }] },
    );
    const up = provider.requests.at(-1)!;
    expect(up.headers["x-api-key"]).toBe(PLANTED);
    expect(up.headers.authorization).toBeUndefined();
    expect(up.headers.cookie).toBeUndefined();
    expect(up.headers["anthropic-version"]).toBe("2023-06-01");
    const o = await newRun("OPENAI");
    await raw(
      "/v1/chat/completions",
      {
        authorization: `Bearer ${o.token}`,
        "x-api-key": o.token,
        "openai-organization": "org-evil",
      },
      { model: "scripted", messages: [{ role: "user", content: "x" }] },
    );
    const up2 = provider.requests.at(-1)!;
    expect(up2.headers.authorization).toBe(`Bearer ${PLANTED}`);
    expect(up2.headers["x-api-key"]).toBeUndefined();
    expect(up2.headers["openai-organization"]).toBeUndefined();
    expect(JSON.stringify(provider.requests)).not.toContain(a.token);
    expect(JSON.stringify(provider.requests)).not.toContain(o.token);
  });

  test("[C14] the provider's response headers are filtered: the echoed key never reaches the agent loop", async ({
    newRun,
    raw,
  }) => {
    const a = await newRun("ANTHROPIC");
    const res = await raw(
      "/v1/messages",
      { "x-api-key": a.token },
      {
        model: "scripted",
        max_tokens: 10,
        messages: [{ role: "user", content: "x" }],
        stream: true,
      },
    );
    expect(res.headers.get("x-echo-auth")).toBeNull();
    expect(res.headers.get("x-ratelimit-remaining-tokens")).toBeNull();
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("request-id")).toBe("req_scripted");
  });
});

describe("provider errors", () => {
  for (const [kind, status, expected] of [
    ["ANTHROPIC", 400, 400],
    ["ANTHROPIC", 401, 502],
    ["ANTHROPIC", 429, 429],
    ["ANTHROPIC", 500, 500],
    ["ANTHROPIC", 529, 529],
    ["OPENAI", 400, 400],
    ["OPENAI", 401, 502],
    ["OPENAI", 500, 500],
  ] as const) {
    test(`[P04] ${kind} provider ${status} is passed on as a clean ${expected} without the key`, async ({
      db,
      gw,
      newRun,
      raw,
    }) => {
      const run = await newRun(kind);
      const path = kind === "ANTHROPIC" ? "/v1/messages" : "/v1/chat/completions";
      const res = await raw(
        path,
        { authorization: `Bearer ${run.token}` },
        { model: `error-${status}`, max_tokens: 10, messages: [{ role: "user", content: "x" }] },
      );
      expect(res.status).toBe(expected);
      expect(res.headers.get("content-type")).toBe("application/json");
      const body = JSON.parse(res.text) as { reason: string; provider_status: number };
      expect(body).toMatchObject({ reason: "PROVIDER_ERROR", provider_status: status });
      expect(res.text).not.toContain(PLANTED);
      if (status === 429) expect(res.headers.get("retry-after")).toBe("7");
      await gw.gateway.settled();
      const row = await db.run.findUniqueOrThrow({ where: { id: run.runId } });
      expect([row.tokensUsed, row.tokensReserved, row.gatewayInFlight]).toEqual([0, 0, 0]);
    });
  }

  test("[P04] the official SDKs surface provider errors as API errors without the key", async ({
    gw,
    newRun,
  }) => {
    const a = await newRun("ANTHROPIC");
    const err = (await new Anthropic({ apiKey: a.token, baseURL: gw.url, maxRetries: 0 }).messages
      .create({ model: "error-400", max_tokens: 10, messages: [{ role: "user", content: "x" }] })
      .then(
        () => null,
        (e: unknown) => e,
      )) as InstanceType<typeof Anthropic.APIError>;
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String(err.message)).toContain("[MASKED]");
    seen.push(String(err.message), JSON.stringify(err));
    const o = await newRun("OPENAI");
    const err2 = (await new OpenAI({
      apiKey: o.token,
      baseURL: `${gw.url}/v1`,
      maxRetries: 0,
    }).chat.completions
      .create({ model: "error-401", messages: [{ role: "user", content: "x" }] })
      .then(
        () => null,
        (e: unknown) => e,
      )) as InstanceType<typeof OpenAI.APIError>;
    expect(err2.status).toBe(502);
    seen.push(String(err2.message), JSON.stringify(err2));
  });

  test("[P04] an upstream timeout is a clean 504 and is charged the reservation", async ({
    db,
    gw,
    newRun,
    raw,
  }) => {
    const run = await newRun("ANTHROPIC");
    const res = await raw(
      "/v1/messages",
      { "x-api-key": run.token },
      { model: "slow", max_tokens: 10, messages: [{ role: "user", content: "x" }] },
    );
    expect(res.status).toBe(504);
    expect(JSON.parse(res.text)).toMatchObject({
      error: { code: "GATEWAY_TIMEOUT", reason: "PROVIDER_TIMEOUT" },
    });
    await gw.gateway.settled();
    expect(
      (await db.run.findUniqueOrThrow({ where: { id: run.runId } })).tokensUsed,
    ).toBeGreaterThan(10);
  });

  test("[P04] an unreachable provider is a clean 502 and costs nothing", async ({
    db,
    gw,
    raw,
  }) => {
    const run = await seedRun(db, gw.keyring, {
      baseUrl: "http://127.0.0.1:1",
      providerKey: PLANTED,
    });
    const res = await raw(
      "/v1/messages",
      { "x-api-key": run.token },
      { model: "scripted", max_tokens: 10, messages: [{ role: "user", content: "x" }] },
    );
    expect(res.status).toBe(502);
    await gw.gateway.settled();
    expect((await db.run.findUniqueOrThrow({ where: { id: run.runId } })).tokensUsed).toBe(0);
  });

  test("[P04] oversized and malformed bodies are refused before any upstream call", async ({
    gw,
    provider,
    newRun,
    raw,
  }) => {
    const run = await newRun("ANTHROPIC");
    const before = provider.requests.length;
    expect(
      (
        await raw(
          "/v1/messages",
          { "x-api-key": run.token },
          {
            model: "scripted",
            max_tokens: 10,
            messages: [{ role: "user", content: "x".repeat(300 * 1024) }],
          },
        )
      ).status,
    ).toBe(413);
    const bad = await fetch(`${gw.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": run.token },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    expect(provider.requests.length).toBe(before);
  });
});

describe("logs", () => {
  test("[P04] [C24] the planted key and run tokens appear in no response, header, log line or error", async ({
    db,
    gw,
  }) => {
    await gw.gateway.settled();
    const logs = gw.logs();
    expect(logs).toContain('"msg":"model request"');
    expect(logs).toMatch(/"runId":"[0-9a-f-]{36}"/);
    expect(logs).toContain('"latencyMs"');
    for (const text of [logs, ...seen]) expect(text).not.toContain(PLANTED);
    const tokens = await db.runToken.count();
    expect(tokens).toBeGreaterThan(0);
    expect(logs).not.toMatch(/ss_run_[A-Za-z0-9_-]{43}/);
    // No prompt or completion text either.
    expect(logs).not.toContain('"messages"');
    expect(logs).not.toContain("w1 w2");
  });

  test("[P02] the provider key is masked only while requests use it: none is kept after the last", async ({
    gw,
  }) => {
    await gw.gateway.settled();
    expect(gw.masker.size).toBe(0);
    expect(gw.masker.mask(PLANTED)).toBe(PLANTED);
  });
});

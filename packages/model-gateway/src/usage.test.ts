// [C17] exact usage accounting: streamed and non-streamed calls of every wire format settle to
// exactly what the provider reported; a stream cut mid-way or a client that disconnects is
// charged its reservation, never zero.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect } from "vitest";
import { seedRun } from "./testing/fixtures.ts";
import { gatewayTest } from "./testing/gateway-test.ts";
import type { Usage } from "./testing/wire-formats.ts";

const total = (u: Usage) => u.input + u.output + u.cacheRead + u.cacheWrite;
const messages = [
  { role: "user" as const, content: "Summarise the repository's open issues, please." },
];

const test = gatewayTest()
  .extend(
    "newRun",
    { scope: "file" },
    ({ db, gw, provider }) =>
      (kind: "ANTHROPIC" | "OPENAI", budget = 100_000) =>
        seedRun(db, gw.keyring, {
          kind,
          baseUrl: provider.url,
          providerKey: "sk-usage-key-0123456789",
          budget,
        }),
  )
  /** The run's row once the gateway has settled every request. */
  .extend("runRow", { scope: "file" }, ({ db, gw }) => async (id: string) => {
    await gw.gateway.settled();
    return db.run.findUniqueOrThrow({ where: { id } });
  })
  .extend("expectExact", { scope: "file" }, ({ runRow }) => async (runId: string, u: Usage) => {
    const row = await runRow(runId);
    expect({
      used: row.tokensUsed,
      reserved: row.tokensReserved,
      inFlight: row.gatewayInFlight,
    }).toEqual({ used: total(u), reserved: 0, inFlight: 0 });
    expect(row.outputTokens).toBe(u.output);
    expect(row.cacheTokens).toBe(u.cacheRead + u.cacheWrite);
  });

describe("exact accounting", () => {
  for (const stream of [false, true]) {
    for (const model of ["scripted", "cache", "multi-delta"]) {
      test(`[C17] Anthropic messages, stream=${stream}, ${model}`, async ({
        gw,
        provider,
        newRun,
        expectExact,
      }) => {
        const run = await newRun("ANTHROPIC");
        const client = new Anthropic({ apiKey: run.token, baseURL: gw.url, maxRetries: 0 });
        if (stream) {
          const s = client.messages.stream({ model, max_tokens: 100, messages });
          const final = await s.finalMessage();
          expect(final.usage.output_tokens).toBe(20);
        } else {
          await client.messages.create({ model, max_tokens: 100, messages });
        }
        await expectExact(run.runId, provider.billed.at(-1)!);
      });
    }

    test(`[C17] OpenAI chat completions, stream=${stream} (include_usage injected)`, async ({
      gw,
      provider,
      newRun,
      expectExact,
    }) => {
      const run = await newRun("OPENAI");
      const client = new OpenAI({ apiKey: run.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
      if (stream) {
        const s = await client.chat.completions.create({ model: "cache", messages, stream: true });
        let text = "";
        for await (const chunk of s) text += chunk.choices[0]?.delta.content ?? "";
        expect(text.trim().split(" ")).toHaveLength(20);
        expect(provider.requests.at(-1)?.body.stream_options).toEqual({ include_usage: true });
      } else {
        await client.chat.completions.create({ model: "cache", messages });
      }
      await expectExact(run.runId, provider.billed.at(-1)!);
    });

    test(`[C17] OpenAI responses, stream=${stream}`, async ({
      gw,
      provider,
      newRun,
      expectExact,
    }) => {
      const run = await newRun("OPENAI");
      const client = new OpenAI({ apiKey: run.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
      if (stream) {
        const s = await client.responses.create({
          model: "cache",
          input: "Summarise the issues.",
          stream: true,
        });
        for await (const _event of s) {
          // drain
        }
      } else {
        const r = await client.responses.create({ model: "cache", input: "Summarise the issues." });
        expect(r.output_text.split(" ")).toHaveLength(20);
      }
      await expectExact(run.runId, provider.billed.at(-1)!);
    });
  }

  test("[C17] sequential calls add up to the provider's total", async ({
    gw,
    provider,
    newRun,
    runRow,
  }) => {
    const run = await newRun("ANTHROPIC");
    const client = new Anthropic({ apiKey: run.token, baseURL: gw.url, maxRetries: 0 });
    const start = provider.billed.length;
    for (let i = 0; i < 5; i += 1)
      await client.messages.create({
        model: "scripted",
        max_tokens: 100,
        messages,
        stream: i % 2 === 0,
      });
    const billed = provider.billed.slice(start).reduce((s, u) => s + total(u), 0);
    expect((await runRow(run.runId)).tokensUsed).toBe(billed);
  });
});

describe("cut streams and disconnects", () => {
  for (const [kind, path] of [
    ["ANTHROPIC", "/v1/messages"],
    ["OPENAI", "/v1/chat/completions"],
    ["OPENAI", "/v1/responses"],
  ] as const) {
    for (const stream of [true, false]) {
      test(`[C17] a ${stream ? "stream" : "body"} cut mid-way on ${path} is charged its reservation`, async ({
        gw,
        newRun,
        runRow,
      }) => {
        const run = await newRun(kind);
        const body =
          path === "/v1/responses"
            ? { model: "cut", input: "hello", max_output_tokens: 300, stream }
            : { model: "cut", max_tokens: 300, messages, stream };
        const res = await fetch(`${gw.url}${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${run.token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        if (stream) {
          // Events already passed on cannot be taken back: the stream breaks off.
          expect(res.status).toBe(200);
          await expect(res.text()).rejects.toThrow();
        } else {
          // A JSON answer is held until complete, so the client gets a clean error instead.
          expect(res.status).toBe(502);
          expect(await res.json()).toMatchObject({ error: { reason: "PROVIDER_ANSWER_CUT" } });
        }
        const row = await runRow(run.runId);
        const estimate = Math.ceil(Buffer.byteLength(JSON.stringify(body)) / 3);
        expect(row.tokensUsed).toBe(estimate + 300);
        expect([row.tokensReserved, row.gatewayInFlight]).toEqual([0, 0]);
      });
    }
  }

  test("[C17] a client that disconnects mid-stream aborts the upstream request and is charged its reservation", async ({
    gw,
    provider,
    newRun,
    runRow,
  }) => {
    const run = await newRun("ANTHROPIC");
    const aborted = provider.abortedByClient;
    const controller = new AbortController();
    const body = { model: "hang", max_tokens: 500, messages, stream: true };
    const res = await fetch(`${gw.url}/v1/messages`, {
      method: "POST",
      signal: controller.signal,
      headers: { "x-api-key": run.token, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value as Uint8Array)).toContain("message_start");
    controller.abort();
    await expect.poll(() => provider.abortedByClient, { timeout: 1500 }).toBe(aborted + 1);
    const row = await runRow(run.runId);
    expect(row.tokensUsed).toBe(Math.ceil(Buffer.byteLength(JSON.stringify(body)) / 3) + 500);
    expect([row.tokensReserved, row.gatewayInFlight]).toEqual([0, 0]);
    expect(gw.logs()).toContain('"outcome":"client_gone"');
  });
});

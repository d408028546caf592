// [C16] The gateway forwards only what the owner allowed: besides the fixed list of paths, a
// provider's allowed models (ModelProvider.allowedModels, set in the owner API) — a request for
// another model is refused before any upstream call and its reservation released; an empty
// list allows any model. Driven with the official SDKs against the scripted provider.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect } from "vitest";
import { seedRun } from "./testing/fixtures.ts";
import { gatewayTest } from "./testing/gateway-test.ts";

const messages = [{ role: "user" as const, content: "Summarise the open issues." }];

const test = gatewayTest()
  .extend(
    "newRun",
    { scope: "file" },
    ({ db, gw, provider }) =>
      async (kind: "ANTHROPIC" | "OPENAI", allowedModels: string[]) => {
        const run = await seedRun(db, gw.keyring, {
          kind,
          baseUrl: provider.url,
          providerKey: "sk-allowed-models-0123456789",
        });
        await db.modelProvider.update({ where: { id: run.providerId }, data: { allowedModels } });
        return run;
      },
  )
  .extend(
    "expectModelRefused",
    { scope: "file" },
    ({ db, gw, provider }) =>
      async (runId: string, call: Promise<unknown>) => {
        const before = provider.requests.length;
        const error = (await call.then(
          () => null,
          (e: unknown) => e,
        )) as { status?: number; error?: { reason?: string; error?: { reason?: string } } } | null;
        expect(error?.status).toBe(403);
        expect(error?.error?.error?.reason ?? error?.error?.reason).toBe("MODEL_NOT_ALLOWED");
        expect(provider.requests.length).toBe(before);
        await gw.gateway.settled();
        const row = await db.run.findUniqueOrThrow({ where: { id: runId } });
        expect([row.tokensUsed, row.tokensReserved, row.gatewayInFlight]).toEqual([0, 0, 0]);
      },
  );

describe("allowed models", () => {
  test("[C16] Anthropic: a model outside the owner's list is refused with no upstream call", async ({
    gw,
    provider,
    newRun,
    expectModelRefused,
  }) => {
    const run = await newRun("ANTHROPIC", ["scripted", "claude-haiku-4-5"]);
    const client = new Anthropic({ apiKey: run.token, baseURL: gw.url, maxRetries: 0 });
    await expectModelRefused(
      run.runId,
      client.messages.create({ model: "claude-opus-4", max_tokens: 10, messages }),
    );
    const ok = await client.messages.create({ model: "scripted", max_tokens: 10, messages });
    expect(ok.type).toBe("message");
    expect(provider.requests.at(-1)?.body.model).toBe("scripted");
  });

  test("[C16] OpenAI chat and responses: the same list holds on every metered path", async ({
    gw,
    newRun,
    expectModelRefused,
  }) => {
    const run = await newRun("OPENAI", ["scripted"]);
    const client = new OpenAI({ apiKey: run.token, baseURL: `${gw.url}/v1`, maxRetries: 0 });
    await expectModelRefused(
      run.runId,
      client.chat.completions.create({ model: "gpt-4o", messages }),
    );
    await expectModelRefused(
      run.runId,
      client.responses.create({ model: "gpt-4o", input: "hello" }),
    );
    const ok = await client.chat.completions.create({ model: "scripted", messages });
    expect(ok.object).toBe("chat.completion");
  });

  test("an empty list allows any model the provider serves", async ({ gw, newRun }) => {
    const run = await newRun("ANTHROPIC", []);
    const client = new Anthropic({ apiKey: run.token, baseURL: gw.url, maxRetries: 0 });
    const ok = await client.messages.create({ model: "scripted", max_tokens: 10, messages });
    expect(ok.type).toBe("message");
  });
});

// providers.verify over HTTP against loopback fakes speaking Anthropic's and OpenAI's real
// `GET /v1/models` wire formats, through netguard: ok with the models the key sees and the time
// recorded; a refused key, an unreachable host and a host the policy refuses each answer with a
// clear reason; the key is never in a response or a log (C24, P04). Allowed models and the
// default model are checked against each other.
import { randomUUID } from "node:crypto";
import { freePort } from "@secondshift/connectors/testing";
import { testKeyring } from "@secondshift/access/testing";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeProvider, type FakeProvider } from "../../testing/fake-provider.ts";
import { startTestApi, type TestApi, type TestBrowser } from "../../testing/index.ts";
import { loopbackOutbound } from "../../testing/outbound.ts";
import { seedHttpTenant, signedInBrowser, type HttpTenant } from "../../testing/tenants.ts";

const keyring = testKeyring();
const anthropicKey = `sk-ant-verify-${randomUUID()}`;
const openaiKey = `sk-proj-verify-${randomUUID()}`;
let t: TestDatabase;
let api: TestApi;
let outbound: ReturnType<typeof loopbackOutbound>;
let anthropic: FakeProvider;
let openai: FakeProvider;
let a: HttpTenant;
let owner: TestBrowser;

beforeAll(async () => {
  t = await createTestDatabase();
  outbound = loopbackOutbound();
  api = await startTestApi(t.db, { keyring, outbound: outbound.fetch });
  anthropic = await startFakeProvider("ANTHROPIC", anthropicKey);
  openai = await startFakeProvider("OPENAI", openaiKey);
  a = await seedHttpTenant(t.db, keyring, "acme");
  owner = await signedInBrowser(api, a.emails.owner);
});
afterAll(async () => {
  await api?.close();
  await outbound?.client.close();
  await anthropic?.close();
  await openai?.close();
  await t?.drop();
});

async function addProvider(kind: "ANTHROPIC" | "OPENAI", baseUrl: string, apiKey: string) {
  const { id } = await owner.trpc.providers.create.mutate({
    workspaceId: a.workspaceId,
    name: `${kind.toLowerCase()}-${randomUUID().slice(0, 8)}`,
    kind,
    baseUrl,
    apiKey,
  });
  return id;
}

const verify = (providerId: string, browser = owner) =>
  browser.trpc.providers.verify.mutate({ workspaceId: a.workspaceId, providerId });

async function listed(providerId: string) {
  const all = await owner.trpc.providers.list.query({ workspaceId: a.workspaceId });
  return all.find((p) => p.id === providerId)!;
}

function expectNoKeyAnywhere() {
  for (const key of [anthropicKey, openaiKey, anthropicKey.slice(0, 12), openaiKey.slice(0, 12)]) {
    for (const body of api.bodies) expect(body).not.toContain(key);
    expect(api.logs()).not.toContain(key);
  }
}

describe("providers.verify", () => {
  it("[C24] Anthropic: one GET /v1/models with x-api-key and anthropic-version; ok, models, time recorded", async () => {
    const id = await addProvider("ANTHROPIC", anthropic.url, anthropicKey);
    expect((await listed(id)).verifiedAt).toBeNull();
    const before = anthropic.requests.length;
    const result = await verify(id);
    expect(result).toMatchObject({ ok: true, models: ["claude-sonnet-4-5", "claude-haiku-4-5"] });
    const seen = anthropic.requests.slice(before);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: "GET", path: "/v1/models" });
    expect(seen[0]!.headers["anthropic-version"]).toBe("2023-06-01");
    expect(seen[0]!.headers.authorization).toBeUndefined();
    expect((await listed(id)).verifiedAt).toEqual(result.ok ? result.verifiedAt : null);
    const audit = await t.db.auditEvent.findFirst({
      where: { action: "provider.verified", targetId: id },
    });
    expect(audit?.outcome).toBe("ok");
    expectNoKeyAnywhere();
  });

  it("[C24] OpenAI with a /v1 base URL: Bearer on /v1/models (not doubled)", async () => {
    const id = await addProvider("OPENAI", `${openai.url}/v1`, openaiKey);
    const result = await verify(id);
    expect(result).toMatchObject({ ok: true, models: ["gpt-4o", "gpt-4o-mini"] });
    expect(openai.requests.at(-1)).toMatchObject({ path: "/v1/models" });
    expect(openai.requests.at(-1)!.headers["x-api-key"]).toBeUndefined();
    expectNoKeyAnywhere();
  });

  it("[P04] a refused key: 'the key was refused', nothing of the provider's answer (which echoes the key) is passed on", async () => {
    const wrong = `sk-proj-wrong-${randomUUID()}`;
    const id = await addProvider("OPENAI", openai.url, wrong);
    const result = await verify(id);
    expect(result).toMatchObject({ ok: false, reason: "KEY_REFUSED" });
    expect(!result.ok && result.message).toMatch(/the key was refused/);
    expect((await listed(id)).verifiedAt).toBeNull();
    for (const body of api.bodies) {
      expect(body).not.toContain(wrong.slice(0, 12));
      expect(body).not.toContain("Incorrect API key");
    }
    expectNoKeyAnywhere();
  });

  it("an unreachable provider is named; a host the policy refuses is refused before connecting", async () => {
    const down = await addProvider("ANTHROPIC", `http://127.0.0.1:${await freePort()}`, "k-down");
    const unreachable = await verify(down);
    expect(unreachable).toMatchObject({ ok: false, reason: "UNREACHABLE" });
    expect(!unreachable.ok && unreachable.message).toMatch(/127\.0\.0\.1:\d+ could not be reached/);

    const strict = loopbackOutbound({ allowLoopback: false });
    const strictApi = await startTestApi(t.db, { keyring, outbound: strict.fetch });
    try {
      const browser = await signedInBrowser(strictApi, a.emails.owner);
      const id = await addProvider("ANTHROPIC", anthropic.url, anthropicKey);
      const before = anthropic.requests.length;
      const refused = await verify(id, browser);
      expect(refused).toMatchObject({ ok: false, reason: "UNREACHABLE" });
      expect(!refused.ok && refused.message).toMatch(/refused/i);
      expect(anthropic.requests.length).toBe(before);
    } finally {
      await strictApi.close();
      await strict.client.close();
    }
  });
});

describe("allowed and default models", () => {
  it("are stored and listed; a default outside the allowed models is refused", async () => {
    const id = await addProvider("ANTHROPIC", anthropic.url, anthropicKey);
    await owner.trpc.providers.update.mutate({
      workspaceId: a.workspaceId,
      providerId: id,
      allowedModels: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-sonnet-4-5"],
      defaultModel: "claude-haiku-4-5",
    });
    expect(await listed(id)).toMatchObject({
      allowedModels: ["claude-haiku-4-5", "claude-sonnet-4-5"],
      defaultModel: "claude-haiku-4-5",
    });
    const refused = await owner.trpc.providers.update
      .mutate({ workspaceId: a.workspaceId, providerId: id, defaultModel: "claude-opus-4" })
      .catch((e: unknown) => e as { data?: { reason?: string } });
    expect(refused).toMatchObject({ data: { reason: "DEFAULT_MODEL_NOT_ALLOWED" } });
    const created = await owner.trpc.providers.create
      .mutate({
        workspaceId: a.workspaceId,
        name: `bad-${randomUUID().slice(0, 8)}`,
        kind: "OPENAI",
        baseUrl: openai.url,
        apiKey: "k",
        allowedModels: ["gpt-4o"],
        defaultModel: "gpt-4o-mini",
      })
      .catch((e: unknown) => e as { data?: { reason?: string } });
    expect(created).toMatchObject({ data: { reason: "DEFAULT_MODEL_NOT_ALLOWED" } });
  });
});

// providers.verify over HTTP against loopback fakes speaking Anthropic's and OpenAI's real
// `GET /v1/models` wire formats, through netguard: ok with the models the key sees and the time
// recorded; a refused key, an unreachable host and a host the policy refuses each answer with a
// clear reason; the key is never in a response or a log (C24, P04). Allowed models and the
// default model are checked against each other.
import { randomUUID } from "node:crypto";
import { freePort } from "@secondshift/connectors/testing";
import { testKeyring } from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { startFakeProvider } from "../../testing/fake-provider.ts";
import { startTestApi, type TestApi } from "../../testing/index.ts";
import { loopbackOutbound } from "../../testing/outbound.ts";
import { seedHttpTenant, signedInBrowser } from "../../testing/tenants.ts";

const keyring = testKeyring();
const anthropicKey = `sk-ant-verify-${randomUUID()}`;
const openaiKey = `sk-proj-verify-${randomUUID()}`;

const test = dbTest
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("outbound", { scope: "file" }, ({}, { onCleanup }) => {
    const outbound = loopbackOutbound();
    onCleanup(() => outbound.client.close());
    return outbound;
  })
  .extend("api", { scope: "file" }, async ({ db, outbound }, { onCleanup }) => {
    const api = await startTestApi(db, { keyring, outbound: outbound.fetch });
    onCleanup(() => api.close());
    return api;
  })
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("anthropic", { scope: "file" }, async ({}, { onCleanup }) => {
    const anthropic = await startFakeProvider("ANTHROPIC", anthropicKey);
    onCleanup(() => anthropic.close());
    return anthropic;
  })
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("openai", { scope: "file" }, async ({}, { onCleanup }) => {
    const openai = await startFakeProvider("OPENAI", openaiKey);
    onCleanup(() => openai.close());
    return openai;
  })
  .extend("acme", { scope: "file" }, ({ db }) => seedHttpTenant(db, keyring, "acme"))
  .extend("owner", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.owner))
  /** The owner adds a provider to acme; its id. */
  .extend(
    "addProvider",
    { scope: "file" },
    ({ owner, acme }) =>
      async (kind: "ANTHROPIC" | "OPENAI", baseUrl: string, apiKey: string) => {
        const { id } = await owner.trpc.providers.create.mutate({
          workspaceId: acme.workspaceId,
          name: `${kind.toLowerCase()}-${randomUUID().slice(0, 8)}`,
          kind,
          baseUrl,
          apiKey,
        });
        return id;
      },
  )
  .extend(
    "verify",
    { scope: "file" },
    ({ owner, acme }) =>
      (providerId: string, browser = owner) =>
        browser.trpc.providers.verify.mutate({ workspaceId: acme.workspaceId, providerId }),
  )
  /** The provider as the owner's list shows it. */
  .extend("listed", { scope: "file" }, ({ owner, acme }) => async (providerId: string) => {
    const all = await owner.trpc.providers.list.query({ workspaceId: acme.workspaceId });
    return all.find((p) => p.id === providerId)!;
  });

function expectNoKeyAnywhere(api: TestApi) {
  for (const key of [anthropicKey, openaiKey, anthropicKey.slice(0, 12), openaiKey.slice(0, 12)]) {
    for (const body of api.bodies) expect(body).not.toContain(key);
    expect(api.logs()).not.toContain(key);
  }
}

describe("providers.verify", () => {
  test("[C24] Anthropic: one GET /v1/models with x-api-key and anthropic-version; ok, models, time recorded", async ({
    db,
    api,
    anthropic,
    addProvider,
    verify,
    listed,
  }) => {
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
    const audit = await db.auditEvent.findFirst({
      where: { action: "provider.verified", targetId: id },
    });
    expect(audit?.outcome).toBe("ok");
    expectNoKeyAnywhere(api);
  });

  test("[C24] OpenAI with a /v1 base URL: Bearer on /v1/models (not doubled)", async ({
    api,
    openai,
    addProvider,
    verify,
  }) => {
    const id = await addProvider("OPENAI", `${openai.url}/v1`, openaiKey);
    const result = await verify(id);
    expect(result).toMatchObject({ ok: true, models: ["gpt-4o", "gpt-4o-mini"] });
    expect(openai.requests.at(-1)).toMatchObject({ path: "/v1/models" });
    expect(openai.requests.at(-1)!.headers["x-api-key"]).toBeUndefined();
    expectNoKeyAnywhere(api);
  });

  test("[P04] a refused key: 'the key was refused', nothing of the provider's answer (which echoes the key) is passed on", async ({
    api,
    openai,
    addProvider,
    verify,
    listed,
  }) => {
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
    expectNoKeyAnywhere(api);
  });

  test("an unreachable provider is named; a host the policy refuses is refused before connecting", async ({
    db,
    anthropic,
    acme,
    addProvider,
    verify,
  }) => {
    const down = await addProvider("ANTHROPIC", `http://127.0.0.1:${await freePort()}`, "k-down");
    const unreachable = await verify(down);
    expect(unreachable).toMatchObject({ ok: false, reason: "UNREACHABLE" });
    expect(!unreachable.ok && unreachable.message).toMatch(/127\.0\.0\.1:\d+ could not be reached/);

    const strict = loopbackOutbound({ allowLoopback: false });
    const strictApi = await startTestApi(db, { keyring, outbound: strict.fetch });
    try {
      const browser = await signedInBrowser(strictApi, acme.emails.owner);
      const id = await addProvider("ANTHROPIC", anthropic.url, anthropicKey);
      const before = anthropic.requests.length;
      const refused = await verify(id, browser);
      // [C21] a policy refusal is said as one, never as "not reachable".
      expect(refused).toMatchObject({ ok: false, reason: "ADDRESS_REFUSED" });
      expect(!refused.ok && refused.message).toMatch(/refused/i);
      expect(anthropic.requests.length).toBe(before);
    } finally {
      await strictApi.close();
      await strict.client.close();
    }
  });
});

describe("allowed and default models", () => {
  test("are stored and listed; a default outside the allowed models is refused", async ({
    anthropic,
    openai,
    acme,
    owner,
    addProvider,
    listed,
  }) => {
    const id = await addProvider("ANTHROPIC", anthropic.url, anthropicKey);
    await owner.trpc.providers.update.mutate({
      workspaceId: acme.workspaceId,
      providerId: id,
      allowedModels: ["claude-sonnet-4-5", "claude-haiku-4-5", "claude-sonnet-4-5"],
      defaultModel: "claude-haiku-4-5",
    });
    expect(await listed(id)).toMatchObject({
      allowedModels: ["claude-haiku-4-5", "claude-sonnet-4-5"],
      defaultModel: "claude-haiku-4-5",
    });
    const refused = await owner.trpc.providers.update
      .mutate({ workspaceId: acme.workspaceId, providerId: id, defaultModel: "claude-opus-4" })
      .catch((e: unknown) => e as { data?: { reason?: string } });
    expect(refused).toMatchObject({ data: { reason: "DEFAULT_MODEL_NOT_ALLOWED" } });
    const created = await owner.trpc.providers.create
      .mutate({
        workspaceId: acme.workspaceId,
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

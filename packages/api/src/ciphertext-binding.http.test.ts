// P06 through the owner API: a credential ciphertext moved with SQL to another row or (its whole
// row) to another workspace makes the procedures that decrypt it — providers.verify and
// connections.discover — refuse with a reason, before anything is sent to the service, and no
// read (list, get) nor any response body or log line ever carries the secret.
import { randomUUID } from "node:crypto";
import { startFakeMcp, type FakeMcp } from "@secondshift/connectors/testing/fake-mcp";
import { testKeyring } from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { afterAll, beforeAll, describe, expect } from "vitest";
import { startFakeProvider, type FakeProvider } from "./testing/fake-provider.ts";
import { startTestApi, type TestApi, type TestBrowser } from "./testing/index.ts";
import { testDiscovery } from "./testing/outbound.ts";
import { seedHttpTenant, signedInBrowser } from "./testing/tenants.ts";

const keyring = testKeyring();
const providerKey = `sk-ant-p06-${randomUUID()}`;
let provider: FakeProvider;
let mcp: FakeMcp;
beforeAll(async () => {
  provider = await startFakeProvider("ANTHROPIC", providerKey);
  mcp = await startFakeMcp();
});
afterAll(async () => {
  await provider?.close();
  await mcp?.stop();
});

const test = dbTest
  .extend("wiring", { scope: "file" }, ({ db }, { onCleanup }) => {
    const wiring = testDiscovery(db, keyring);
    onCleanup(() => wiring.close());
    return wiring;
  })
  .extend("api", { scope: "file" }, async ({ db, wiring }, { onCleanup }) => {
    const api = await startTestApi(db, {
      keyring,
      discovery: wiring.discovery,
      outbound: wiring.outbound,
    });
    onCleanup(() => api.close());
    return api;
  })
  .extend("acme", { scope: "file" }, ({ db }) => seedHttpTenant(db, keyring, "acme"))
  .extend("globex", { scope: "file" }, ({ db }) => seedHttpTenant(db, keyring, "globex"))
  .extend("owner", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.owner))
  .extend("otherOwner", { scope: "file" }, ({ api, globex }) =>
    signedInBrowser(api, globex.emails.owner),
  );

const reasonOf = (call: Promise<unknown>) =>
  call.then(
    () => "resolved",
    (e: { data?: { reason?: string | null }; message?: string }) =>
      `${e.data?.reason ?? "no reason"}: ${e.message ?? ""}`,
  );

function expectNeverShown(api: TestApi, wiring: { logs: () => string }, secrets: string[]) {
  for (const secret of secrets) {
    for (const body of api.bodies) expect(body).not.toContain(secret);
    expect(api.logs()).not.toContain(secret);
    expect(wiring.logs()).not.toContain(secret);
  }
}

async function reads(browser: TestBrowser, workspaceId: string, connectionId?: string) {
  await browser.trpc.providers.list.query({ workspaceId });
  await browser.trpc.connections.list.query({ workspaceId });
  if (connectionId) await browser.trpc.connections.get.query({ workspaceId, connectionId });
}

describe("moved ciphertexts through the owner API", () => {
  test("[P06] a provider key copied into another provider's row, or its row moved to another workspace: providers.verify refuses, nothing reaches the provider", async ({
    db,
    api,
    wiring,
    acme,
    globex,
    owner,
    otherOwner,
  }) => {
    const create = (apiKey: string) =>
      owner.trpc.providers.create.mutate({
        workspaceId: acme.workspaceId,
        name: `p-${randomUUID().slice(0, 8)}`,
        kind: "ANTHROPIC",
        baseUrl: provider.url,
        apiKey,
      });
    const source = await create(providerKey);
    const otherKey = `sk-ant-p06-other-${randomUUID()}`;
    const target = await create(otherKey);
    const verify = (browser: TestBrowser, workspaceId: string, providerId: string) =>
      browser.trpc.providers.verify.mutate({ workspaceId, providerId });
    expect(await verify(owner, acme.workspaceId, source.id)).toMatchObject({ ok: true });

    // Another row: the target now holds the source's ciphertext (the key the provider takes).
    await db.$executeRaw`UPDATE "ModelProvider" SET "apiKeyCiphertext" =
      (SELECT "apiKeyCiphertext" FROM "ModelProvider" WHERE id = ${source.id}) WHERE id = ${target.id}`;
    const sent = provider.requests.length;
    expect(await reasonOf(verify(owner, acme.workspaceId, target.id))).toMatch(
      /^PROVIDER_KEY_UNREADABLE: The stored key cannot be decrypted; replace the provider's key\.$/,
    );

    // Another workspace: the source's whole row (same id, same field) now belongs to globex.
    await db.$executeRaw`UPDATE "ModelProvider" SET "workspaceId" = ${globex.workspaceId} WHERE id = ${source.id}`;
    expect(await reasonOf(verify(otherOwner, globex.workspaceId, source.id))).toMatch(
      /^PROVIDER_KEY_UNREADABLE: /,
    );
    expect(await reasonOf(verify(owner, acme.workspaceId, source.id))).toMatch(
      /^MODEL_PROVIDER_NOT_FOUND: /, // P05: not acme's any more
    );
    expect(provider.requests.length).toBe(sent);

    await reads(owner, acme.workspaceId);
    await reads(otherOwner, globex.workspaceId);
    expectNeverShown(api, wiring, [providerKey, otherKey]);
  });

  test("[P06] a connection credential copied into another connection's row, or its row moved to another workspace: connections.discover refuses, nothing reaches the service", async ({
    db,
    api,
    wiring,
    acme,
    globex,
    owner,
    otherOwner,
  }) => {
    const credential = `mcp-p06-${randomUUID()}`;
    const otherCredential = `mcp-p06-other-${randomUUID()}`;
    mcp.accepted.add(`Bearer ${credential}`);
    const create = (secret: string) =>
      owner.trpc.connections.create.mutate({
        workspaceId: acme.workspaceId,
        kind: "MCP",
        label: `mcp-${randomUUID().slice(0, 8)}`,
        endpoint: mcp.url,
        authType: "BEARER",
        credential: secret,
      });
    const source = await create(credential);
    const target = await create(otherCredential);
    const discover = (browser: TestBrowser, workspaceId: string, connectionId: string) =>
      browser.trpc.connections.discover.mutate({ workspaceId, connectionId });
    const found = await discover(owner, acme.workspaceId, source.id);
    expect(found.tools.map((t) => t.name)).toEqual(["ping"]);

    await db.$executeRaw`UPDATE "Connection" SET "credentialCiphertext" =
      (SELECT "credentialCiphertext" FROM "Connection" WHERE id = ${source.id}) WHERE id = ${target.id}`;
    const seen = mcp.seen.length;
    expect(await reasonOf(discover(owner, acme.workspaceId, target.id))).toMatch(
      /^DECRYPTION_FAILED: The Connection\.credentialCiphertext value does not decrypt for this row/,
    );

    await db.$executeRaw`UPDATE "Connection" SET "workspaceId" = ${globex.workspaceId} WHERE id = ${source.id}`;
    expect(await reasonOf(discover(otherOwner, globex.workspaceId, source.id))).toMatch(
      /^DECRYPTION_FAILED: The Connection\.credentialCiphertext value does not decrypt for this row/,
    );
    expect(mcp.seen.length).toBe(seen);

    await reads(owner, acme.workspaceId, target.id);
    await reads(otherOwner, globex.workspaceId, source.id);
    expectNeverShown(api, wiring, [credential, otherCredential]);
  });
});

// Owner URLs are refused at save when the outbound policy would refuse them at send (C21):
// webhooks, model providers, connections and clone URLs, under netguard's own decision with a
// fake resolver (no DNS). Rows saved before the check are marked on the lists.
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createDestinationChecker, type OutboundPolicy } from "@secondshift/netguard";
import { describe, expect } from "vitest";
import { createConnection } from "./connections/manage.ts";
import { getConnection, listConnections } from "./connections/list.ts";
import { listModelProviders } from "./providers/list.ts";
import { createModelProvider, updateModelProvider } from "./providers/manage.ts";
import { addRepository } from "./repositories/add.ts";
import { listRepositories } from "./repositories/list.ts";
import {
  actorContext,
  recordingServices,
  seedTenant,
  testKeyring,
  type Tenant,
} from "./testing/index.ts";
import { createWebhook, listWebhooks } from "./webhooks/manage.ts";

const keyring = testKeyring();
const PUBLIC = "93.184.215.14";

/** A fake DNS: these names only; anything else does not resolve. */
const names: Record<string, string[]> = {
  "api.example.com": [PUBLIC],
  "internal.example.com": ["10.0.0.5"],
  "rebind.example.com": [PUBLIC, "127.0.0.1"],
};
const resolver: NonNullable<OutboundPolicy["resolver"]> = (host) => {
  const answer = names[host];
  return answer
    ? Promise.resolve(answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })))
    : Promise.reject(Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" }));
};

/** The web process's policy in production: public https only, plus what the operator allows. */
const production = (allowedPrivateCidrs: string[] = []) =>
  createDestinationChecker({
    production: true,
    allowedPrivateHosts: [],
    allowedPrivateCidrs,
    resolver,
  });

const test = dbTest.extend("tenant", { scope: "file" }, ({ db }) => seedTenant(db, "acme"));

const owner = (db: Db, tenant: Tenant, allowed: string[] = []) =>
  actorContext(db, tenant, tenant.ownerId, {
    keyring,
    services: recordingServices(),
    destinations: production(allowed),
  });

let n = 0;
const unique = () => `n${++n}`;

/** One save per kind, with the URL under test. */
const kinds = {
  webhook: (db: Db, t: Tenant, url: string, allowed?: string[]) =>
    createWebhook(owner(db, t, allowed), { name: unique(), url }),
  provider: (db: Db, t: Tenant, url: string, allowed?: string[]) =>
    createModelProvider(owner(db, t, allowed), {
      name: unique(),
      kind: "ANTHROPIC",
      baseUrl: url,
      apiKey: "sk-test",
    }),
  connection: (db: Db, t: Tenant, url: string, allowed?: string[]) =>
    createConnection(owner(db, t, allowed), {
      kind: "MCP",
      label: unique(),
      endpoint: url,
      authType: "NONE",
    }),
  repository: (db: Db, t: Tenant, url: string, allowed?: string[]) =>
    addRepository(owner(db, t, allowed), {
      cloneUrl: `${url.replace(/\/$/, "")}/acme/${unique()}.git`,
    }),
};

const PRIVATE_RULE = /SecondShift refuses private, loopback, link-local and metadata addresses/;

describe.each(Object.entries(kinds))("%s URLs at save", (_kind, save) => {
  test("[C21] a private, loopback or metadata address is refused, naming the rule and the settings", async ({
    db,
    tenant,
  }) => {
    for (const [url, words] of [
      ["https://10.0.0.5/", /a private address \(10\.0\.0\.5\)/],
      ["https://127.0.0.1:9000/", /a loopback address \(127\.0\.0\.1\)/],
      ["https://169.254.169.254/", /cloud metadata \(link-local\) address/],
      ["https://internal.example.com/", /a private address \(10\.0\.0\.5\)/],
      ["https://rebind.example.com/", /a loopback address \(127\.0\.0\.1\)/],
    ] as const) {
      const refused = save(db, tenant, url);
      await expect(refused, url).rejects.toMatchObject({
        code: "BAD_REQUEST",
        reason: "URL_ADDRESS_NOT_ALLOWED",
      });
      await expect(refused, url).rejects.toThrow(words);
      await expect(refused).rejects.toThrow(PRIVATE_RULE);
      await expect(refused).rejects.toThrow(/SECONDSHIFT_ALLOWED_PRIVATE_CIDRS/);
      await expect(refused).rejects.not.toThrow(/reach/i);
    }
  });

  test("[C21] http:// is refused in production", async ({ db, tenant }) => {
    const refused = save(db, tenant, "http://api.example.com/");
    await expect(refused).rejects.toMatchObject({ reason: "URL_HTTPS_REQUIRED" });
    await expect(refused).rejects.toThrow(/use an https:\/\/ URL/);
  });

  test("a name that does not resolve is refused with its own message", async ({ db, tenant }) => {
    const refused = save(db, tenant, "https://nowhere.example.com/");
    await expect(refused).rejects.toMatchObject({ reason: "URL_HOST_UNRESOLVED" });
    await expect(refused).rejects.toThrow(
      /nowhere\.example\.com could not be resolved; check the name/,
    );
  });

  test("a public name is accepted, and a private range the operator allows", async ({
    db,
    tenant,
  }) => {
    await expect(save(db, tenant, "https://api.example.com/")).resolves.toBeDefined();
    await expect(
      save(db, tenant, "https://internal.example.com/", ["10.0.0.0/8"]),
    ).resolves.toBeDefined();
  });
});

describe("updates and rows saved before the check", () => {
  test("[C21] a provider's base URL is checked on update too", async ({ db, tenant }) => {
    const { id } = await kinds.provider(db, tenant, "https://api.example.com/");
    await expect(
      updateModelProvider(owner(db, tenant), { providerId: id, baseUrl: "https://10.0.0.5/" }),
    ).rejects.toMatchObject({ reason: "URL_ADDRESS_NOT_ALLOWED" });
    await expect(
      updateModelProvider(owner(db, tenant), {
        providerId: id,
        baseUrl: "https://nowhere.example.com/",
      }),
    ).rejects.toMatchObject({ reason: "URL_HOST_UNRESOLVED" });
    await updateModelProvider(owner(db, tenant, ["10.0.0.0/8"]), {
      providerId: id,
      baseUrl: "https://10.0.0.5/",
    });
  });

  test("[C21] stored providers, connections and repositories that break the rule are marked, without DNS", async ({
    db,
    tenant,
  }) => {
    // Saved before the check (no destinations wired): a loopback provider, a private endpoint,
    // an http clone URL.
    const legacy = actorContext(db, tenant, tenant.ownerId, {
      keyring,
      services: recordingServices(),
    });
    const provider = await createModelProvider(legacy, {
      name: "legacy",
      kind: "OPENAI",
      baseUrl: "https://127.0.0.1:8000/v1",
      apiKey: "sk-x",
    });
    const connection = await createConnection(legacy, {
      kind: "HTTP",
      label: "legacy",
      endpoint: "https://10.1.2.3/api",
      authType: "NONE",
    });
    const repository = await addRepository(legacy, {
      cloneUrl: "http://git.example.com/acme/old.git",
    });
    const reader = owner(db, tenant);
    const providers = await listModelProviders(reader, {});
    expect(providers.find((p) => p.id === provider.id)?.addressProblem).toMatch(
      /The base URL points to a loopback address \(127\.0\.0\.1\)/,
    );
    const publicOnes = providers.filter((p) => p.baseUrl.startsWith("https://api.example.com"));
    expect(publicOnes.length).toBeGreaterThan(0);
    expect(publicOnes.every((p) => p.addressProblem === null)).toBe(true);
    const connections = await listConnections(reader, {});
    expect(connections.find((c) => c.id === connection.id)?.addressProblem).toMatch(
      /The endpoint points to a private address \(10\.1\.2\.3\)/,
    );
    expect((await getConnection(reader, { connectionId: connection.id })).addressProblem).toMatch(
      /private address/,
    );
    const repositories = await listRepositories(reader, {});
    const repo = repositories.find((r) => r.id === repository.id);
    expect(repo?.addressProblem).toMatch(/The clone URL uses http:\/\//);
    expect(repo?.addressProblem).not.toContain("/acme/old");
  });

  test("[C21] a stored webhook whose last delivery the policy refused is marked", async ({
    db,
    tenant,
  }) => {
    const { id } = await createWebhook(owner(db, tenant), {
      name: "legacy-hook",
      url: "https://api.example.com/h",
    });
    await db.webhookDelivery.create({
      data: {
        workspaceId: tenant.workspaceId,
        webhookId: id,
        event: "webhook.test",
        status: "FAILED",
        attemptCount: 1,
        lastError:
          "The webhook's host resolves to an address that outbound requests may not reach. (ADDRESS_NOT_PUBLIC)",
      },
    });
    const listed = await listWebhooks(owner(db, tenant), {});
    expect(listed.find((w) => w.id === id)?.addressProblem).toMatch(
      /refused by the outbound policy.*SECONDSHIFT_ALLOWED_PRIVATE_CIDRS/,
    );
    expect(listed.filter((w) => w.id !== id).every((w) => w.addressProblem === null)).toBe(true);
  });
});

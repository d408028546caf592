// The owner API's authorization matrix over real HTTP: every procedure of the router × {owner,
// admin, viewer, member of another workspace, signed out} → allowed / FORBIDDEN / NOT_FOUND /
// UNAUTHORIZED (C02, P05). A procedure without a row fails the completeness test. Every
// response body is scanned for the planted secrets and for ciphertext / hash fields (C23, C25,
// C27, P04): a credential is never returned by any procedure.
import { randomUUID } from "node:crypto";
import type { Need } from "@secondshift/domain";
import {
  createRun,
  recordingServices,
  seedAppConnection,
  seedConnection,
  seedFailedDelivery,
  modelsListFetch,
  seedJob,
  seedOutput,
  staticDiscovery,
  stubAuthorizer,
  testKeyring,
  tool,
} from "@secondshift/domain/testing";
import { createUser } from "@secondshift/accounts/testing";
import { encryptField } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import superjson from "superjson";
import { describe, expect } from "vitest";
import { appRouter } from "./root.ts";
import { startTestApi, type TestApi, type TestBrowser } from "./testing/index.ts";
import {
  MATRIX_PASSWORD,
  seedHttpTenant,
  signedInBrowser,
  type HttpTenant,
} from "./testing/tenants.ts";

type ActorKind = "owner" | "admin" | "viewer" | "member of another workspace" | "signed out";
type Verdict = "allowed" | "FORBIDDEN" | "NOT_FOUND" | "UNAUTHORIZED";
const actorKinds: ActorKind[] = [
  "owner",
  "admin",
  "viewer",
  "member of another workspace",
  "signed out",
];

const keyring = testKeyring();
const services = recordingServices();
/** Discovery answers without a network here; the real one is tested in connections-discover. */
const discovery = staticDiscovery([tool("search"), tool("write", true), tool("fresh")]);
/** Provider checks answer without a network here; the real one is tested in providers/verify. */
const outbound = modelsListFetch();
const mcpOAuth = stubAuthorizer();
/** Secrets sent in requests (a new connection's credential): never echoed either. */
const sentSecrets: string[] = [];

const test = dbTest
  .extend("api", { scope: "file" }, async ({ db }, { onCleanup }) => {
    const api = await startTestApi(db, {
      limits: { maxPerAccount: 1000, maxPerAddress: 10_000 },
      services,
      keyring,
      discovery,
      outbound: outbound.fetch,
      mcpOAuth,
    });
    onCleanup(() => api.close());
    return api;
  })
  .extend("acme", { scope: "file" }, ({ db }) => seedHttpTenant(db, keyring, "acme"))
  .extend("other", { scope: "file" }, async ({ db }) => {
    const other = await seedHttpTenant(db, keyring, "other");
    await createRun(db, other.workspaceId, await seedJob(db, other));
    await seedFailedDelivery(db, other);
    await seedOutput(db, other);
    return other;
  })
  .extend("browsers", { scope: "file" }, async ({ api, acme, other }) => {
    const browsers = new Map<ActorKind, TestBrowser>();
    browsers.set("owner", await signedInBrowser(api, acme.emails.owner));
    browsers.set("admin", await signedInBrowser(api, acme.emails.admin));
    browsers.set("viewer", await signedInBrowser(api, acme.emails.viewer));
    browsers.set("member of another workspace", await signedInBrowser(api, other.emails.owner));
    browsers.set("signed out", api.browser());
    return browsers;
  });

/**
 * `access`: "public" (anyone), "signed-in" (any session), or the domain layer's need in the
 * workspace. `scope` as in the domain matrix: "row" names a row (another workspace's row must be
 * NOT_FOUND), "list" returns rows (none of another workspace's may appear). `fresh`: the call
 * changes the caller's sessions, so it runs in a new browser of a new user with the actor's
 * membership. `expect`: where the honest answer differs from the access rule (a random id).
 */
interface Row {
  access: "public" | "signed-in" | Need;
  scope?: "row" | "list";
  input?: (x: HttpTenant, db: Db) => unknown;
  fresh?: boolean;
  expect?: Partial<Record<ActorKind, Verdict>>;
}

const connection = (x: HttpTenant, db: Db) =>
  seedConnection(db, keyring, x, {
    kind: "MCP",
    label: `docs-${randomUUID().slice(0, 8)}`,
    tools: [tool("search"), tool("write", true)],
    allowed: ["search"],
  });
const job = async (x: HttpTenant, db: Db) => ({ jobId: await seedJob(db, x) });
const invitation = async (x: HttpTenant, db: Db) =>
  (
    await db.invitation.create({
      data: {
        workspaceId: x.workspaceId,
        email: `invitee-${randomUUID().slice(0, 8)}@x.test`,
        role: "VIEWER",
        tokenHash: new Uint8Array(Buffer.from(randomUUID())),
        invitedById: x.ownerId,
        expiresAt: new Date(Date.now() + 3600_000),
      },
    })
  ).id;
const grant = async (x: HttpTenant, db: Db) =>
  (
    await db.grant.create({
      data: {
        workspaceId: x.workspaceId,
        jobId: await seedJob(db, x),
        requestHash: "h",
        approvedById: x.ownerId,
        bindings: [],
      },
    })
  ).id;
const sent = (what: string) => {
  const value = `sent-${what}-${randomUUID()}`;
  sentSecrets.push(value);
  return value;
};
const member = async (x: HttpTenant, db: Db) =>
  (await createUser(db, MATRIX_PASSWORD, { workspaceId: x.workspaceId, role: "VIEWER" })).id;
const provider = async (x: HttpTenant, db: Db) =>
  (
    await db.modelProvider.create({
      data: {
        workspaceId: x.workspaceId,
        name: `p-${randomUUID()}`,
        kind: "OPENAI",
        baseUrl: "https://api.openai.com",
        apiKeyCiphertext: new Uint8Array([7]),
      },
    })
  ).id;
/** A provider whose key really decrypts (verify reads and sends it). */
const sealedProvider = async (x: HttpTenant, db: Db) => {
  const id = randomUUID();
  const cell = { workspaceId: x.workspaceId, table: "ModelProvider", rowId: id };
  await db.modelProvider.create({
    data: {
      id,
      workspaceId: x.workspaceId,
      name: `sealed-${id}`,
      kind: "ANTHROPIC",
      baseUrl: "https://api.anthropic.com",
      apiKeyCiphertext: await encryptField(keyring, sent("verify-key"), {
        ...cell,
        field: "apiKeyCiphertext",
      }),
    },
  });
  return id;
};
const webhook = async (x: HttpTenant, db: Db) =>
  (
    await db.webhook.create({
      data: {
        workspaceId: x.workspaceId,
        name: "hook",
        urlCiphertext: new Uint8Array([1]),
        secretCiphertext: new Uint8Array([2]),
      },
    })
  ).id;
const notFoundWhenSignedIn: Row["expect"] = {
  owner: "NOT_FOUND",
  admin: "NOT_FOUND",
  viewer: "NOT_FOUND",
  "member of another workspace": "NOT_FOUND",
};

const matrix: Record<string, Row> = {
  // auth: the account procedures
  "auth.setupStatus": { access: "public" },
  "auth.setup": {
    access: "public",
    fresh: true,
    input: () => ({
      email: `setup-${randomUUID().slice(0, 8)}@x.test`,
      name: "Setup",
      password: MATRIX_PASSWORD,
      workspaceName: "Second",
    }),
  },
  "auth.signIn": {
    access: "public",
    fresh: true,
    input: async (x, db) => ({
      email: (await createUser(db, MATRIX_PASSWORD, { workspaceId: x.workspaceId, role: "VIEWER" }))
        .email,
      password: MATRIX_PASSWORD,
    }),
  },
  // Signing out without a session is harmless: nothing to end.
  "auth.signOut": { access: "public", fresh: true },
  "auth.signOutEverywhere": { access: "signed-in", fresh: true },
  "auth.me": { access: "signed-in" },
  "auth.changePassword": {
    access: "signed-in",
    fresh: true,
    input: () => ({ currentPassword: "not the password", newPassword: "another passphrase 42" }),
  },
  "auth.sessions.list": { access: "signed-in" },
  "auth.sessions.revoke": {
    access: "signed-in",
    input: () => ({ sessionId: randomUUID() }),
    expect: notFoundWhenSignedIn,
  },
  // The token is the authority: a made-up one finds nothing, whoever asks.
  "auth.invitations.accept": {
    access: "public",
    fresh: true,
    input: () => ({ token: `invitation_${randomUUID()}`, name: "New", password: MATRIX_PASSWORD }),
    expect: { ...notFoundWhenSignedIn, "signed out": "NOT_FOUND" },
  },
  "auth.invitations.list": { access: "own", scope: "list", input: () => ({}) },
  "auth.invitations.preview": {
    access: "public",
    input: () => ({ token: `invitation_${randomUUID()}` }),
    expect: { ...notFoundWhenSignedIn, "signed out": "NOT_FOUND" },
  },
  "auth.invitations.create": {
    access: "own",
    scope: "list",
    input: () => ({ email: `invitee-${randomUUID().slice(0, 8)}@x.test`, role: "VIEWER" }),
  },
  "auth.invitations.revoke": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ invitationId: await invitation(x, db) }),
  },
  // jobs
  "jobs.list": { access: "read", scope: "list", input: () => ({}) },
  "jobs.get": { access: "read", scope: "row", input: job },
  "jobs.review": { access: "read", scope: "row", input: job },
  "jobs.events": { access: "read", scope: "row", input: job },
  "jobs.approve": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({
      jobId: await seedJob(db, x, { status: "NEEDS_APPROVAL" }),
      requestHash: "h",
    }),
  },
  "jobs.reject": { access: "own", scope: "row", input: job },
  "jobs.revokeGrant": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ grantId: await grant(x, db) }),
  },
  "jobs.runNow": { access: "operate", scope: "row", input: job },
  "jobs.pause": { access: "operate", scope: "row", input: job },
  "jobs.resume": { access: "operate", scope: "row", input: job },
  "jobs.setOutsiderEvents": {
    access: "operate",
    scope: "row",
    input: async (x, db) => ({ ...(await job(x, db)), allow: true }),
  },
  // runs
  "runs.list": {
    access: "read",
    scope: "list",
    input: () => ({ limit: 100, status: ["RUNNING", "SUCCEEDED"], trigger: "MANUAL" }),
  },
  "runs.get": {
    access: "read",
    scope: "row",
    input: async (x, db) => ({ runId: await createRun(db, x.workspaceId, await seedJob(db, x)) }),
  },
  "runs.transcriptPage": {
    access: "read",
    scope: "row",
    input: async (x, db) => ({
      runId: await createRun(db, x.workspaceId, await seedJob(db, x)),
      limit: 10,
    }),
  },
  // Any session may ask; a run of a workspace the user is not in is not found, like none.
  "runs.locate": {
    access: "signed-in",
    input: () => ({ runId: randomUUID() }),
    expect: notFoundWhenSignedIn,
  },
  "runs.cancel": {
    access: "operate",
    scope: "row",
    input: async (x, db) => ({
      runId: await createRun(db, x.workspaceId, await seedJob(db, x), "QUEUED"),
    }),
  },
  // outputs
  "outputs.list": {
    access: "read",
    scope: "row",
    input: async (x, db) => ({ runId: (await seedOutput(db, x)).runId }),
  },
  "outputs.waiting": { access: "read", scope: "list", input: () => ({}) },
  "outputs.approve": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ outputId: (await seedOutput(db, x)).outputId }),
  },
  "outputs.reject": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ outputId: (await seedOutput(db, x)).outputId }),
  },
  // connections
  "connections.list": { access: "read", scope: "list", input: () => ({}) },
  "connections.create": {
    access: "own",
    scope: "list",
    input: () => ({
      kind: "MCP",
      label: `new-${randomUUID().slice(0, 8)}`,
      endpoint: "https://mcp.example.test/mcp",
      authType: "BEARER",
      credential: sent("credential"),
    }),
  },
  "connections.impact": {
    access: "read",
    scope: "row",
    input: async (x, db) => ({ connectionId: await connection(x, db) }),
  },
  "connections.delete": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ connectionId: await connection(x, db) }),
  },
  "connections.setAllowedTools": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ connectionId: await connection(x, db), tools: ["search", "write"] }),
  },
  "connections.get": {
    access: "read",
    scope: "row",
    input: async (x, db) => ({ connectionId: await connection(x, db) }),
  },
  "connections.discover": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ connectionId: await connection(x, db) }),
  },
  "connections.oauthStart": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({
      connectionId: await seedConnection(db, keyring, x, {
        kind: "MCP",
        label: `oauth-${randomUUID().slice(0, 8)}`,
        tools: [],
        allowed: [],
        authType: "OAUTH",
      }),
    }),
  },
  "connections.setWebhookSecret": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ connectionId: await seedAppConnection(db, keyring, x) }),
  },
  // repositories
  "repositories.list": { access: "read", scope: "list", input: () => ({}) },
  "repositories.syncNow": {
    access: "operate",
    scope: "row",
    input: (x) => ({ repositoryId: x.repositoryId }),
  },
  // webhooks
  "webhooks.redeliver": {
    access: "operate",
    scope: "row",
    input: async (x, db) => ({ deliveryId: await seedFailedDelivery(db, x) }),
  },
  "repositories.add": {
    access: "own",
    scope: "list",
    input: () => ({ cloneUrl: `https://github.com/acme/r-${randomUUID()}.git` }),
  },
  "webhooks.list": { access: "read", scope: "list", input: () => ({}) },
  "webhooks.deliveries": { access: "read", scope: "list", input: () => ({ limit: 100 }) },
  "webhooks.create": {
    access: "own",
    scope: "list",
    input: () => ({ name: "ci", url: `https://hooks.example.test/${sent("webhook-url")}` }),
  },
  "webhooks.delete": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ webhookId: await webhook(x, db) }),
  },
  "webhooks.update": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({
      webhookId: await webhook(x, db),
      jobKeys: ["nightly"],
      enabled: false,
    }),
  },
  "webhooks.testDelivery": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ webhookId: await webhook(x, db) }),
  },
  // members
  "members.list": { access: "read", scope: "list", input: () => ({}) },
  "members.changeRole": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ userId: await member(x, db), role: "ADMIN" }),
  },
  "members.remove": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ userId: await member(x, db) }),
  },
  // providers
  "providers.list": { access: "read", scope: "list", input: () => ({}) },
  "providers.create": {
    access: "own",
    scope: "list",
    input: () => ({
      name: `p-${randomUUID()}`,
      kind: "OPENAI",
      baseUrl: "https://api.openai.com/v1",
      apiKey: sent("provider-key"),
    }),
  },
  "providers.update": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ providerId: await provider(x, db), defaultModel: "gpt-x" }),
  },
  "providers.delete": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ providerId: await provider(x, db) }),
  },
  "providers.replaceKey": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({
      providerId: await provider(x, db),
      apiKey: sent("replacement-key"),
    }),
  },
  "providers.verify": {
    access: "own",
    scope: "row",
    input: async (x, db) => ({ providerId: await sealedProvider(x, db) }),
  },
  // workspace settings
  "workspace.get": { access: "read", scope: "list", input: () => ({}) },
  "workspace.onboarding": { access: "read", scope: "list", input: () => ({}) },
  "workspace.update": {
    access: "own",
    scope: "list",
    input: () => ({ maxConcurrentRuns: 3, defaultTokenBudget: 150_000, eventRunsPerHour: 90 }),
  },
  // Not workspace-scoped; the default policy "owners": an owner of any workspace may.
  "workspace.create": {
    access: "signed-in",
    input: () => ({ name: `ws-${randomUUID().slice(0, 8)}` }),
    expect: { admin: "FORBIDDEN", viewer: "FORBIDDEN" },
  },
  "audit.list": {
    access: "read",
    scope: "list",
    input: () => ({ limit: 100, since: new Date(Date.now() - 3600_000) }),
  },
};

const rolesFor: Record<Need, ActorKind[]> = {
  read: ["owner", "admin", "viewer"],
  operate: ["owner", "admin"],
  own: ["owner"],
};

function expected(row: Row, actor: ActorKind): Verdict {
  const override = row.expect?.[actor];
  if (override) return override;
  if (row.access === "public") return "allowed";
  if (actor === "signed out") return "UNAUTHORIZED";
  if (row.access === "signed-in") return "allowed";
  if (actor === "member of another workspace") return "NOT_FOUND";
  return rolesFor[row.access].includes(actor) ? "allowed" : "FORBIDDEN";
}

// At runtime `_def.procedures` is flat, keyed by dotted path (its static type is the nested record).
const procedures = appRouter._def.procedures as unknown as Record<
  string,
  { _def: { type: string } }
>;

/** One call as a browser would make it: GET for a query, JSON POST for a mutation. */
async function call(api: TestApi, browser: TestBrowser, path: string, input: unknown) {
  const type = procedures[path]?._def.type;
  const encoded = JSON.stringify(superjson.serialize(input));
  const response =
    type === "query"
      ? await browser.fetch(
          `${api.base}/${path}${input === undefined ? "" : `?input=${encodeURIComponent(encoded)}`}`,
        )
      : await browser.fetch(`${api.base}/${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          ...(input === undefined ? {} : { body: encoded }),
        });
  const body = (await response.json()) as {
    result?: { data?: { json?: unknown } };
    error?: { json?: { data?: { code?: string; httpStatus?: number } } };
  };
  const code = body.error?.json?.data?.code;
  expect(code, `${path} failed on the server`).not.toBe("INTERNAL_SERVER_ERROR");
  const verdict: Verdict =
    code === "UNAUTHORIZED" || code === "FORBIDDEN" || code === "NOT_FOUND" ? code : "allowed";
  return { verdict, result: body.result?.data?.json };
}

/** For calls that change the caller's sessions: a new user with the actor's membership. */
async function freshBrowser(
  { db, api, acme, other }: { db: Db; api: TestApi; acme: HttpTenant; other: HttpTenant },
  actor: ActorKind,
): Promise<TestBrowser> {
  if (actor === "signed out") return api.browser();
  const roles = { owner: "OWNER", admin: "ADMIN", viewer: "VIEWER" } as const;
  const membership =
    actor === "member of another workspace"
      ? { workspaceId: other.workspaceId, role: "OWNER" as const }
      : { workspaceId: acme.workspaceId, role: roles[actor] };
  const user = await createUser(db, MATRIX_PASSWORD, membership);
  return signedInBrowser(api, user.email);
}

async function inputFor(db: Db, row: Row, tenant: HttpTenant, workspaceId: string) {
  const input = await row.input?.(tenant, db);
  if (row.access === "public" || row.access === "signed-in") return input;
  return { ...(input as object), workspaceId };
}

const paths = Object.keys(matrix).sort();
const cells = paths.flatMap((path) =>
  actorKinds.map((actor) => [path, actor, expected(matrix[path]!, actor)] as const),
);
const rowScoped = paths.filter((p) => matrix[p]!.scope === "row");
const listScoped = paths.filter((p) => matrix[p]!.scope === "list");

describe("owner API authorization matrix over HTTP", () => {
  test("[C02] every procedure of the router has exactly one matrix row", () => {
    // Subscriptions are streamed over SSE, which this table's call() does not speak; each has
    // its own authorization tests over HTTP, named here so that a new one cannot slip by.
    const streamedElsewhere: Record<string, string> = {
      "runs.transcript": "routers/runs/transcript.http.test.ts",
    };
    const subscriptions = Object.keys(procedures).filter(
      (path) => procedures[path]?._def.type === "subscription",
    );
    expect(subscriptions.sort()).toEqual(Object.keys(streamedElsewhere).sort());
    expect(
      Object.keys(procedures)
        .filter((p) => !(p in streamedElsewhere))
        .sort(),
    ).toEqual(paths);
  });

  test.for(cells)(
    "[C02][P05] %s as %s → %s",
    async ([path, actor, want], { db, api, acme, other, browsers }) => {
      const row = matrix[path]!;
      const browser = row.fresh
        ? await freshBrowser({ db, api, acme, other }, actor)
        : browsers.get(actor)!;
      const input = await inputFor(db, row, acme, acme.workspaceId);
      const auditCount = () => db.auditEvent.count({ where: { workspaceId: acme.workspaceId } });
      const [before, queued, asked, sentOut, authorizing] = [
        await auditCount(),
        services.calls.length,
        discovery.calls.length,
        outbound.requests.length,
        mcpOAuth.calls.length,
      ];
      const got = await call(api, browser, path, input);
      expect(got.verdict).toBe(want);
      if (want !== "allowed" && row.access !== "public" && row.access !== "signed-in") {
        // A refusal changes nothing: no audit row, no queue call, no call to a service.
        expect(await auditCount()).toBe(before);
        expect(services.calls.length).toBe(queued);
        expect(discovery.calls.length).toBe(asked);
        expect(outbound.requests.length).toBe(sentOut);
        expect(mcpOAuth.calls.length).toBe(authorizing);
      }
    },
  );

  test.for(rowScoped)(
    "[P05] %s with another workspace's row → NOT_FOUND",
    async (path, { db, api, acme, other, browsers }) => {
      const input = await inputFor(db, matrix[path]!, other, acme.workspaceId);
      expect((await call(api, browsers.get("owner")!, path, input)).verdict).toBe("NOT_FOUND");
    },
  );

  test.for(listScoped)(
    "[P05] %s shows nothing of another workspace",
    async (path, { db, api, acme, other, browsers }) => {
      const got = await call(
        api,
        browsers.get("owner")!,
        path,
        await inputFor(db, matrix[path]!, acme, acme.workspaceId),
      );
      expect(got.verdict).toBe("allowed");
      const text = JSON.stringify(got.result ?? null);
      const bRuns = await db.run.findMany({
        where: { workspaceId: other.workspaceId },
        select: { id: true },
      });
      expect(bRuns.length).toBeGreaterThan(0);
      const bIds = [
        other.workspaceId,
        other.ownerId,
        other.adminId,
        other.viewerId,
        other.repositoryId,
      ];
      for (const id of [...bIds, ...bRuns.map((r) => r.id)]) expect(text).not.toContain(id);
    },
  );
});

describe("no procedure returns a secret", () => {
  test("[C27] a webhook's signing secret, a repository's push secret and a GitHub App's webhook secret are shown once", async ({
    db,
    api,
    acme,
    browsers,
  }) => {
    const owner = browsers.get("owner")!;
    const hook = await call(api, owner, "webhooks.create", {
      workspaceId: acme.workspaceId,
      name: "once",
      url: `https://hooks.example.test/${sent("once-url")}`,
    });
    const repo = await call(api, owner, "repositories.add", {
      workspaceId: acme.workspaceId,
      cloneUrl: `https://github.com/acme/once-${randomUUID()}.git`,
    });
    const connectionId = await seedAppConnection(db, keyring, acme);
    const app = await call(api, owner, "connections.setWebhookSecret", {
      workspaceId: acme.workspaceId,
      connectionId,
    });
    const { secret } = hook.result as { secret: string };
    const { pushSecret, pushUrl, id } = repo.result as Record<string, string>;
    expect(pushUrl).toBe(`${api.origin}/webhooks/repositories/${id}/push`);
    const { webhookSecret, webhookUrl } = app.result as Record<string, string>;
    expect(webhookUrl).toBe(`${api.origin}/webhooks/github-app/${connectionId}`);
    for (const path of ["webhooks.list", "repositories.list", "connections.list", "audit.list"])
      await call(api, owner, path, { workspaceId: acme.workspaceId });
    const shown = await call(api, owner, "connections.get", {
      workspaceId: acme.workspaceId,
      connectionId,
    });
    expect(shown.result).toMatchObject({ webhook: { url: webhookUrl, secretSet: true } });
    for (const value of [secret, pushSecret, webhookSecret])
      expect(api.bodies.filter((body) => body.includes(value!))).toHaveLength(1);
  });

  test("[C23][C25][C27][P04] no response body of the matrix carries a planted secret, a ciphertext or a hash", ({
    api,
    acme,
    other,
  }) => {
    // Runs after the matrix (same file, in order): every body any browser received.
    expect(api.bodies.length).toBeGreaterThan(cells.length);
    const forbidden = [
      ...acme.planted,
      ...other.planted,
      ...sentSecrets,
      "Ciphertext",
      "passwordHash",
      "tokenHash",
    ];
    expect(sentSecrets.length).toBeGreaterThan(0);
    for (const body of api.bodies)
      for (const value of forbidden) expect(body, value).not.toContain(value);
  });
});

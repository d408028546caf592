// The acceptance matrix of the domain layer: every use case × every kind of actor, against real
// PostgreSQL. Owners may do everything, admins what C02 allows ("read" and "operate"), viewers
// only read; a member of another workspace and a non-member find no workspace at all (P05). A
// use case exported from an area's index without a row here fails the completeness test.
import { randomUUID } from "node:crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { isAppError } from "@secondshift/errors";
import { describe, expect } from "vitest";
import type { ActorContext, Need } from "./context.ts";
import {
  actorContext,
  createRun,
  recordingServices,
  seedAppConnection,
  seedConnection,
  seedFailedDelivery,
  seedJob,
  seedOutput,
  modelsListFetch,
  seedTenant,
  staticDiscovery,
  stubAuthorizer,
  testKeyring,
  tool,
  type Tenant,
} from "./testing/index.ts";
import { createModelProvider } from "./providers/manage.ts";
import { useCases, type UseCaseName } from "./use-cases.ts";

const keyring = testKeyring();
const discovery = staticDiscovery([tool("search"), tool("write", true), tool("fresh")]);
const outbound = modelsListFetch();
const mcpOAuth = stubAuthorizer();

/**
 * acme (`a`), whose use cases are called; other (`b`), with rows the read use cases must not
 * leak; and `stranger`, a user who belongs to no workspace.
 */
const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  const stranger = (
    await db.user.create({
      data: { email: `stranger-${randomUUID()}@x.test`, name: "stranger", passwordHash: "x" },
    })
  ).id;
  // Rows of the other workspace for the read use cases to (not) leak.
  await createRun(db, b.workspaceId, await seedJob(db, b));
  await seedFailedDelivery(db, b);
  await seedOutput(db, b);
  await db.modelProvider.create({
    data: {
      workspaceId: b.workspaceId,
      name: "b-provider",
      kind: "ANTHROPIC",
      baseUrl: "https://api.anthropic.com",
      apiKeyCiphertext: new Uint8Array([9]),
    },
  });
  return { a, b, stranger };
});
type Tenants = { a: Tenant; b: Tenant; stranger: string };

/**
 * `row`: the input names a row, so the owner of this workspace passing another workspace's row
 * must get NOT_FOUND. `list`: the input names no row (or only filters); the result must contain
 * nothing of the other workspace.
 */
interface MatrixRow {
  need: Need;
  scope: "row" | "list";
  /** A valid input in `tenant` (fresh rows each call, so mutations do not interfere). */
  prepare: (tenant: Tenant, db: Db) => unknown;
}

const connection = (db: Db, tenant: Tenant) =>
  seedConnection(db, keyring, tenant, {
    kind: "MCP",
    label: `docs-${randomUUID().slice(0, 8)}`,
    tools: [tool("search"), tool("write", true)],
    allowed: ["search"],
  });

const grant = async (db: Db, tenant: Tenant) => {
  const jobId = await seedJob(db, tenant);
  const row = await db.grant.create({
    data: {
      workspaceId: tenant.workspaceId,
      jobId,
      requestHash: "h",
      approvedById: tenant.ownerId,
      bindings: [],
    },
  });
  return row.id;
};

const member = async (db: Db, tenant: Tenant) => {
  const user = await db.user.create({
    data: { email: `member-${randomUUID()}@x.test`, name: "member", passwordHash: "x" },
  });
  await db.membership.create({
    data: { workspaceId: tenant.workspaceId, userId: user.id, role: "VIEWER" },
  });
  return user.id;
};

const invitation = async (db: Db, tenant: Tenant) =>
  (
    await db.invitation.create({
      data: {
        workspaceId: tenant.workspaceId,
        email: `invitee-${randomUUID()}@x.test`,
        role: "VIEWER",
        tokenHash: new Uint8Array(Buffer.from(randomUUID())),
        invitedById: tenant.ownerId,
        expiresAt: new Date(Date.now() + 3600_000),
      },
    })
  ).id;

const provider = async (db: Db, tenant: Tenant) =>
  (
    await db.modelProvider.create({
      data: {
        workspaceId: tenant.workspaceId,
        name: `p-${randomUUID()}`,
        kind: "OPENAI",
        baseUrl: "https://api.openai.com",
        apiKeyCiphertext: new Uint8Array([7]),
      },
    })
  ).id;

/** A provider whose key really decrypts (verify reads it). */
const sealedProvider = async (db: Db, tenant: Tenant) =>
  (
    await createModelProvider(actorContext(db, tenant, tenant.ownerId, { keyring }), {
      name: `sealed-${randomUUID()}`,
      kind: "OPENAI",
      baseUrl: "https://api.openai.com/v1",
      apiKey: "matrix-sealed-key",
    })
  ).id;

const webhook = async (db: Db, tenant: Tenant) =>
  (
    await db.webhook.create({
      data: {
        workspaceId: tenant.workspaceId,
        name: "hook",
        urlCiphertext: new Uint8Array([1]),
        secretCiphertext: new Uint8Array([2]),
      },
    })
  ).id;

const matrix: Record<UseCaseName, MatrixRow> = {
  // jobs
  getAccessReview: {
    need: "read",
    scope: "row",
    prepare: async (x, db) => ({ jobId: await seedJob(db, x) }),
  },
  listJobs: {
    need: "read",
    scope: "list",
    prepare: (x) => ({ repositoryId: x.repositoryId }),
  },
  getJob: {
    need: "read",
    scope: "row",
    prepare: async (x, db) => ({ jobId: await seedJob(db, x) }),
  },
  approveJob: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({
      jobId: await seedJob(db, x, { status: "NEEDS_APPROVAL" }),
      requestHash: "h",
    }),
  },
  rejectJob: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ jobId: await seedJob(db, x) }),
  },
  revokeGrant: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ grantId: await grant(db, x) }),
  },
  runNow: {
    need: "operate",
    scope: "row",
    prepare: async (x, db) => ({ jobId: await seedJob(db, x) }),
  },
  pauseJob: {
    need: "operate",
    scope: "row",
    prepare: async (x, db) => ({ jobId: await seedJob(db, x) }),
  },
  resumeJob: {
    need: "operate",
    scope: "row",
    prepare: async (x, db) => ({ jobId: await seedJob(db, x) }),
  },
  // runs
  cancelRun: {
    need: "operate",
    scope: "row",
    prepare: async (x, db) => ({
      runId: await createRun(db, x.workspaceId, await seedJob(db, x), "QUEUED"),
    }),
  },
  listRuns: { need: "read", scope: "list", prepare: () => ({ limit: 100 }) },
  getRun: {
    need: "read",
    scope: "row",
    prepare: async (x, db) => ({ runId: await createRun(db, x.workspaceId, await seedJob(db, x)) }),
  },
  readTranscriptPage: {
    need: "read",
    scope: "row",
    prepare: async (x, db) => ({
      runId: await createRun(db, x.workspaceId, await seedJob(db, x)),
      limit: 10,
    }),
  },
  // outputs
  listRunOutputs: {
    need: "read",
    scope: "row",
    prepare: async (x, db) => ({ runId: (await seedOutput(db, x)).runId }),
  },
  listWaitingOutputs: { need: "read", scope: "list", prepare: () => ({}) },
  approveOutput: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ outputId: (await seedOutput(db, x)).outputId }),
  },
  rejectOutput: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ outputId: (await seedOutput(db, x)).outputId }),
  },
  // connections
  createConnection: {
    need: "own",
    scope: "list",
    prepare: () => ({
      kind: "MCP",
      label: `new-${randomUUID().slice(0, 8)}`,
      endpoint: "https://mcp.example.test/mcp",
      authType: "BEARER",
      credential: "matrix-credential",
    }),
  },
  deleteConnection: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ connectionId: await connection(db, x) }),
  },
  setAllowedTools: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({
      connectionId: await connection(db, x),
      tools: ["search", "write"],
    }),
  },
  storeDiscoveredTools: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ connectionId: await connection(db, x), tools: [tool("search")] }),
  },
  listConnections: { need: "read", scope: "list", prepare: () => ({}) },
  getConnectionImpact: {
    need: "read",
    scope: "row",
    prepare: async (x, db) => ({ connectionId: await connection(db, x) }),
  },
  getConnection: {
    need: "read",
    scope: "row",
    prepare: async (x, db) => ({ connectionId: await connection(db, x) }),
  },
  discoverConnectionTools: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ connectionId: await connection(db, x) }),
  },
  startConnectionOAuth: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({
      connectionId: await seedConnection(db, keyring, x, {
        kind: "MCP",
        label: `oauth-${randomUUID().slice(0, 8)}`,
        tools: [],
        allowed: [],
        authType: "OAUTH",
      }),
      redirectUrl: "https://secondshift.example.test/api/oauth/callback",
    }),
  },
  // triggers (issue #25)
  setConnectionWebhookSecret: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ connectionId: await seedAppConnection(db, keyring, x) }),
  },
  listJobEvents: {
    need: "read",
    scope: "row",
    prepare: async (x, db) => ({ jobId: await seedJob(db, x) }),
  },
  setOutsiderEvents: {
    need: "operate",
    scope: "row",
    prepare: async (x, db) => ({ jobId: await seedJob(db, x), allow: true }),
  },
  // repositories
  syncRepositoryNow: {
    need: "operate",
    scope: "row",
    prepare: (x: Tenant) => ({ repositoryId: x.repositoryId }),
  },
  listRepositories: { need: "read", scope: "list", prepare: () => ({}) },
  // webhooks
  redeliverWebhook: {
    need: "operate",
    scope: "row",
    prepare: async (x, db) => ({ deliveryId: await seedFailedDelivery(db, x) }),
  },
  // members, providers, audit
  listMembers: { need: "read", scope: "list", prepare: () => ({}) },
  changeMemberRole: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ userId: await member(db, x), role: "ADMIN" }),
  },
  removeMember: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ userId: await member(db, x) }),
  },
  createInvitation: {
    need: "own",
    scope: "list",
    prepare: () => ({ email: `invitee-${randomUUID()}@x.test`, role: "VIEWER" }),
  },
  listInvitations: { need: "own", scope: "list", prepare: () => ({}) },
  revokeInvitation: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ invitationId: await invitation(db, x) }),
  },
  // providers
  listModelProviders: { need: "read", scope: "list", prepare: () => ({}) },
  createModelProvider: {
    need: "own",
    scope: "list",
    prepare: () => ({
      name: `new-${randomUUID()}`,
      kind: "ANTHROPIC",
      baseUrl: "https://api.anthropic.com",
      apiKey: "matrix-provider-key",
    }),
  },
  updateModelProvider: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ providerId: await provider(db, x), defaultModel: "gpt-x" }),
  },
  deleteModelProvider: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ providerId: await provider(db, x) }),
  },
  replaceModelProviderKey: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ providerId: await provider(db, x), apiKey: "matrix-new-key" }),
  },
  verifyModelProvider: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ providerId: await sealedProvider(db, x) }),
  },
  // webhooks (configuration)
  createWebhook: {
    need: "own",
    scope: "list",
    prepare: () => ({ name: "ci", url: "https://hooks.example.test/x" }),
  },
  listWebhooks: { need: "read", scope: "list", prepare: () => ({}) },
  listWebhookDeliveries: { need: "read", scope: "list", prepare: () => ({ limit: 100 }) },
  deleteWebhook: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ webhookId: await webhook(db, x) }),
  },
  updateWebhook: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({
      webhookId: await webhook(db, x),
      statuses: ["FAILED"],
      enabled: false,
    }),
  },
  sendTestDelivery: {
    need: "own",
    scope: "row",
    prepare: async (x, db) => ({ webhookId: await webhook(db, x) }),
  },
  // repositories (adding)
  addRepository: {
    need: "own",
    scope: "list",
    prepare: () => ({ cloneUrl: `https://github.com/acme/r-${randomUUID()}.git` }),
  },
  // workspace settings
  getWorkspace: { need: "read", scope: "list", prepare: () => ({}) },
  getOnboarding: { need: "read", scope: "list", prepare: () => ({}) },
  updateWorkspace: {
    need: "own",
    scope: "list",
    prepare: () => ({ maxConcurrentRuns: 3, eventRunsPerHour: 30 }),
  },
  // audit
  listAuditEvents: { need: "read", scope: "list", prepare: () => ({ limit: 100 }) },
  exportAuditEvents: { need: "read", scope: "list", prepare: () => ({}) },
};

type ActorKind = "owner" | "admin" | "viewer" | "member of another workspace" | "non-member";
type Verdict = "allowed" | "FORBIDDEN" | "NOT_FOUND";

const actors: Record<ActorKind, (tenants: Tenants) => string> = {
  owner: ({ a }) => a.ownerId,
  admin: ({ a }) => a.adminId,
  viewer: ({ a }) => a.viewerId,
  "member of another workspace": ({ b }) => b.ownerId,
  "non-member": ({ stranger }) => stranger,
};

const rolesFor: Record<Need, ActorKind[]> = {
  read: ["owner", "admin", "viewer"],
  operate: ["owner", "admin"],
  own: ["owner"],
};

function expected(need: Need, actor: ActorKind): Verdict {
  if (actor === "member of another workspace" || actor === "non-member") return "NOT_FOUND";
  return rolesFor[need].includes(actor) ? "allowed" : "FORBIDDEN";
}

type AnyUseCase = (ctx: ActorContext, input: unknown) => Promise<unknown>;

/** A streamed result (an export's pages) is read to its end, so its rows are checked too. */
async function drained(result: unknown): Promise<unknown> {
  if (result === null || typeof result !== "object" || !(Symbol.asyncIterator in result))
    return result;
  const items: unknown[] = [];
  for await (const item of result as AsyncIterable<unknown>) items.push(item);
  return items;
}

/** Calls a use case; any other AppError (CONFLICT, PRECONDITION…) got past authorization. */
async function verdict(name: UseCaseName, ctx: ActorContext, input: unknown) {
  try {
    return {
      verdict: "allowed" as Verdict,
      result: await drained(await (useCases[name] as AnyUseCase)(ctx, input)),
    };
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (error.code === "FORBIDDEN" || error.code === "NOT_FOUND")
      return { verdict: error.code as Verdict, result: undefined };
    return { verdict: "allowed" as Verdict, result: undefined };
  }
}

const auditCount = (db: Db, a: Tenant) =>
  db.auditEvent.count({ where: { workspaceId: a.workspaceId } });

const names = Object.keys(matrix) as UseCaseName[];
const cells = names.flatMap((name) =>
  (Object.keys(actors) as ActorKind[]).map(
    (actor) => [name, actor, expected(matrix[name].need, actor)] as const,
  ),
);

describe("authorization matrix", () => {
  test("[C02] every use case exported by an area has exactly one matrix row, and takes (ctx, input)", () => {
    expect(Object.keys(useCases).sort()).toEqual([...names].sort());
    for (const name of names) expect(useCases[name], name).toHaveLength(2);
  });

  test.for(cells)("[C02][P05] %s as %s → %s", async ([name, actor, want], { db, tenants }) => {
    const { a } = tenants;
    const input = await matrix[name].prepare(a, db);
    const services = recordingServices();
    const [before, asked, sent, authorizing] = [
      await auditCount(db, a),
      discovery.calls.length,
      outbound.requests.length,
      mcpOAuth.calls.length,
    ];
    const ctx = actorContext(db, a, actors[actor](tenants), {
      services,
      keyring,
      discovery,
      outbound: outbound.fetch,
      mcpOAuth,
    });
    const got = await verdict(name, ctx, input);
    expect(got.verdict).toBe(want);
    if (want !== "allowed") {
      // A refusal changes nothing: no audit row, no queue call, no call to a service.
      expect(await auditCount(db, a)).toBe(before);
      expect(services.calls).toEqual([]);
      expect(discovery.calls.length).toBe(asked);
      expect(outbound.requests.length).toBe(sent);
      expect(mcpOAuth.calls.length).toBe(authorizing);
    }
  });

  test.for(names)(
    "[P05] %s by this workspace's owner never reaches another workspace's rows",
    async (name, { db, tenants: { a, b } }) => {
      const row = matrix[name];
      const ctx = actorContext(db, a, a.ownerId, {
        services: recordingServices(),
        keyring,
        discovery,
        outbound: outbound.fetch,
        mcpOAuth,
      });
      if (row.scope === "row") {
        const foreign = await row.prepare(b, db);
        expect((await verdict(name, ctx, foreign)).verdict).toBe("NOT_FOUND");
        return;
      }
      const got = await verdict(name, ctx, await row.prepare(a, db));
      expect(got.verdict).toBe("allowed");
      const text = JSON.stringify(got.result ?? null);
      for (const id of [b.workspaceId, b.ownerId, b.adminId, b.viewerId, b.repositoryId])
        expect(text).not.toContain(id);
      const bRuns = await db.run.findMany({
        where: { workspaceId: b.workspaceId },
        select: { id: true },
      });
      for (const r of bRuns) expect(text).not.toContain(r.id);
      expect(text).not.toContain("b-provider");
    },
  );
});

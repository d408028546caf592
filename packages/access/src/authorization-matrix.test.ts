// The acceptance matrix of the domain layer: every use case × every kind of actor, against real
// PostgreSQL. Owners may do everything, admins what C02 allows ("read" and "operate"), viewers
// only read; a member of another workspace and a non-member find no workspace at all (P05). A
// use case exported from an area's index without a row here fails the completeness test.
import { randomUUID } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { isAppError } from "@secondshift/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActorContext, Need } from "./context.ts";
import {
  actorContext,
  createRun,
  recordingServices,
  seedConnection,
  seedFailedDelivery,
  seedJob,
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

let t: TestDatabase;
let a: Tenant;
let b: Tenant;
let stranger: string;
const keyring = testKeyring();
const discovery = staticDiscovery([tool("search"), tool("write", true), tool("fresh")]);
const outbound = modelsListFetch();
const mcpOAuth = stubAuthorizer();

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
  b = await seedTenant(t.db, "other");
  stranger = (
    await t.db.user.create({
      data: { email: `stranger-${randomUUID()}@x.test`, name: "stranger", passwordHash: "x" },
    })
  ).id;
  // Rows of the other workspace for the read use cases to (not) leak.
  await createRun(t.db, b.workspaceId, await seedJob(t.db, b));
  await seedFailedDelivery(t.db, b);
  await t.db.modelProvider.create({
    data: {
      workspaceId: b.workspaceId,
      name: "b-provider",
      kind: "ANTHROPIC",
      baseUrl: "https://api.anthropic.com",
      apiKeyCiphertext: new Uint8Array([9]),
    },
  });
});
afterAll(async () => t?.drop());

/**
 * `row`: the input names a row, so the owner of this workspace passing another workspace's row
 * must get NOT_FOUND. `list`: the input names no row (or only filters); the result must contain
 * nothing of the other workspace.
 */
interface MatrixRow {
  need: Need;
  scope: "row" | "list";
  /** A valid input in `tenant` (fresh rows each call, so mutations do not interfere). */
  prepare: (tenant: Tenant) => unknown;
}

const connection = (tenant: Tenant) =>
  seedConnection(t.db, keyring, tenant, {
    kind: "MCP",
    label: `docs-${randomUUID().slice(0, 8)}`,
    tools: [tool("search"), tool("write", true)],
    allowed: ["search"],
  });

const grant = async (tenant: Tenant) => {
  const jobId = await seedJob(t.db, tenant);
  const row = await t.db.grant.create({
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

const member = async (tenant: Tenant) => {
  const user = await t.db.user.create({
    data: { email: `member-${randomUUID()}@x.test`, name: "member", passwordHash: "x" },
  });
  await t.db.membership.create({
    data: { workspaceId: tenant.workspaceId, userId: user.id, role: "VIEWER" },
  });
  return user.id;
};

const invitation = async (tenant: Tenant) =>
  (
    await t.db.invitation.create({
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

const provider = async (tenant: Tenant) =>
  (
    await t.db.modelProvider.create({
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
const sealedProvider = async (tenant: Tenant) =>
  (
    await createModelProvider(actorContext(t.db, tenant, tenant.ownerId, { keyring }), {
      name: `sealed-${randomUUID()}`,
      kind: "OPENAI",
      baseUrl: "https://api.openai.com/v1",
      apiKey: "matrix-sealed-key",
    })
  ).id;

const webhook = async (tenant: Tenant) =>
  (
    await t.db.webhook.create({
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
    prepare: async (x) => ({ jobId: await seedJob(t.db, x) }),
  },
  listJobs: {
    need: "read",
    scope: "list",
    prepare: (x) => ({ repositoryId: x.repositoryId }),
  },
  getJob: { need: "read", scope: "row", prepare: async (x) => ({ jobId: await seedJob(t.db, x) }) },
  approveJob: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({
      jobId: await seedJob(t.db, x, { status: "NEEDS_APPROVAL" }),
      requestHash: "h",
    }),
  },
  rejectJob: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ jobId: await seedJob(t.db, x) }),
  },
  revokeGrant: { need: "own", scope: "row", prepare: async (x) => ({ grantId: await grant(x) }) },
  runNow: {
    need: "operate",
    scope: "row",
    prepare: async (x) => ({ jobId: await seedJob(t.db, x) }),
  },
  pauseJob: {
    need: "operate",
    scope: "row",
    prepare: async (x) => ({ jobId: await seedJob(t.db, x) }),
  },
  resumeJob: {
    need: "operate",
    scope: "row",
    prepare: async (x) => ({ jobId: await seedJob(t.db, x) }),
  },
  // runs
  cancelRun: {
    need: "operate",
    scope: "row",
    prepare: async (x) => ({
      runId: await createRun(t.db, x.workspaceId, await seedJob(t.db, x), "QUEUED"),
    }),
  },
  listRuns: { need: "read", scope: "list", prepare: () => ({ limit: 100 }) },
  getRun: {
    need: "read",
    scope: "row",
    prepare: async (x) => ({ runId: await createRun(t.db, x.workspaceId, await seedJob(t.db, x)) }),
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
    prepare: async (x) => ({ connectionId: await connection(x) }),
  },
  setAllowedTools: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ connectionId: await connection(x), tools: ["search", "write"] }),
  },
  storeDiscoveredTools: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ connectionId: await connection(x), tools: [tool("search")] }),
  },
  listConnections: { need: "read", scope: "list", prepare: () => ({}) },
  getConnectionImpact: {
    need: "read",
    scope: "row",
    prepare: async (x) => ({ connectionId: await connection(x) }),
  },
  getConnection: {
    need: "read",
    scope: "row",
    prepare: async (x) => ({ connectionId: await connection(x) }),
  },
  discoverConnectionTools: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ connectionId: await connection(x) }),
  },
  startConnectionOAuth: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({
      connectionId: await seedConnection(t.db, keyring, x, {
        kind: "MCP",
        label: `oauth-${randomUUID().slice(0, 8)}`,
        tools: [],
        allowed: [],
        authType: "OAUTH",
      }),
      redirectUrl: "https://secondshift.example.test/api/oauth/callback",
    }),
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
    prepare: async (x) => ({ deliveryId: await seedFailedDelivery(t.db, x) }),
  },
  // members, providers, audit
  listMembers: { need: "read", scope: "list", prepare: () => ({}) },
  changeMemberRole: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ userId: await member(x), role: "ADMIN" }),
  },
  removeMember: { need: "own", scope: "row", prepare: async (x) => ({ userId: await member(x) }) },
  createInvitation: {
    need: "own",
    scope: "list",
    prepare: () => ({ email: `invitee-${randomUUID()}@x.test`, role: "VIEWER" }),
  },
  listInvitations: { need: "own", scope: "list", prepare: () => ({}) },
  revokeInvitation: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ invitationId: await invitation(x) }),
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
    prepare: async (x) => ({ providerId: await provider(x), defaultModel: "gpt-x" }),
  },
  deleteModelProvider: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ providerId: await provider(x) }),
  },
  replaceModelProviderKey: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ providerId: await provider(x), apiKey: "matrix-new-key" }),
  },
  verifyModelProvider: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ providerId: await sealedProvider(x) }),
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
    prepare: async (x) => ({ webhookId: await webhook(x) }),
  },
  updateWebhook: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ webhookId: await webhook(x), statuses: ["FAILED"], enabled: false }),
  },
  sendTestDelivery: {
    need: "own",
    scope: "row",
    prepare: async (x) => ({ webhookId: await webhook(x) }),
  },
  // repositories (adding)
  addRepository: {
    need: "own",
    scope: "list",
    prepare: () => ({ cloneUrl: `https://github.com/acme/r-${randomUUID()}.git` }),
  },
  // workspace settings
  getWorkspace: { need: "read", scope: "list", prepare: () => ({}) },
  updateWorkspace: { need: "own", scope: "list", prepare: () => ({ maxConcurrentRuns: 3 }) },
  // audit
  listAuditEvents: { need: "read", scope: "list", prepare: () => ({ limit: 100 }) },
  exportAuditEvents: { need: "read", scope: "list", prepare: () => ({}) },
};

type ActorKind = "owner" | "admin" | "viewer" | "member of another workspace" | "non-member";
type Verdict = "allowed" | "FORBIDDEN" | "NOT_FOUND";

const actors: Record<ActorKind, () => string> = {
  owner: () => a.ownerId,
  admin: () => a.adminId,
  viewer: () => a.viewerId,
  "member of another workspace": () => b.ownerId,
  "non-member": () => stranger,
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

const auditCount = () => t.db.auditEvent.count({ where: { workspaceId: a.workspaceId } });

const names = Object.keys(matrix) as UseCaseName[];
const cells = names.flatMap((name) =>
  (Object.keys(actors) as ActorKind[]).map(
    (actor) => [name, actor, expected(matrix[name].need, actor)] as const,
  ),
);

describe("authorization matrix", () => {
  it("[C02] every use case exported by an area has exactly one matrix row, and takes (ctx, input)", () => {
    expect(Object.keys(useCases).sort()).toEqual([...names].sort());
    for (const name of names) expect(useCases[name], name).toHaveLength(2);
  });

  it.each(cells)("[C02][P05] %s as %s → %s", async (name, actor, want) => {
    const input = await matrix[name].prepare(a);
    const services = recordingServices();
    const [before, asked, sent, authorizing] = [
      await auditCount(),
      discovery.calls.length,
      outbound.requests.length,
      mcpOAuth.calls.length,
    ];
    const ctx = actorContext(t.db, a, actors[actor](), {
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
      expect(await auditCount()).toBe(before);
      expect(services.calls).toEqual([]);
      expect(discovery.calls.length).toBe(asked);
      expect(outbound.requests.length).toBe(sent);
      expect(mcpOAuth.calls.length).toBe(authorizing);
    }
  });

  it.each(names)(
    "[P05] %s by this workspace's owner never reaches another workspace's rows",
    async (name) => {
      const row = matrix[name];
      const ctx = actorContext(t.db, a, a.ownerId, {
        services: recordingServices(),
        keyring,
        discovery,
        outbound: outbound.fetch,
        mcpOAuth,
      });
      if (row.scope === "row") {
        const foreign = await row.prepare(b);
        expect((await verdict(name, ctx, foreign)).verdict).toBe("NOT_FOUND");
        return;
      }
      const got = await verdict(name, ctx, await row.prepare(a));
      expect(got.verdict).toBe("allowed");
      const text = JSON.stringify(got.result ?? null);
      for (const id of [b.workspaceId, b.ownerId, b.adminId, b.viewerId, b.repositoryId])
        expect(text).not.toContain(id);
      const bRuns = await t.db.run.findMany({
        where: { workspaceId: b.workspaceId },
        select: { id: true },
      });
      for (const r of bRuns) expect(text).not.toContain(r.id);
      expect(text).not.toContain("b-provider");
    },
  );
});

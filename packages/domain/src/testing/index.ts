// Test fixtures shared by domain and broker tests: a workspace with an owner, an admin and a
// viewer, a repository, and a second workspace for isolation tests.
import { randomBytes, randomUUID } from "node:crypto";
import type { RepoJob } from "@secondshift/config";
import { createKeyring, type Keyring } from "@secondshift/crypto";
import type {
  ConnectionAuth,
  ConnectionKind,
  Db,
  JobStatus,
  OutputState,
  Prisma,
} from "@secondshift/db";
import { seedTenant as seedSharedTenant, type SeededTenant } from "@secondshift/db/testing";
import {
  createConnection,
  setAllowedTools,
  storeDiscoveredTools,
  type CreateConnectionInput,
} from "../connections/manage.ts";
import type { ActorContext, McpAuthorizer, ToolDiscovery, WorkspaceServices } from "../context.ts";
import { readRequestedOutputs } from "../outputs/stored.ts";
import { readRequestedTriggers } from "../triggers/stored.ts";
import { normaliseRequest, requestHash } from "../request.ts";
import type { DiscoveredTool } from "../tools.ts";

export type Tenant = SeededTenant;

/** A job as a repository's config declares it (repo-sync's SyncedJob: the prompt file read). */
export type DeclaredJob = Omit<RepoJob, "prompt" | "promptFile" | "outputs" | "triggers"> & {
  prompt: string;
  /** Absent: the job requests no outputs. */
  outputs?: RepoJob["outputs"];
  /** Absent: the job requests no triggers. */
  triggers?: RepoJob["triggers"];
};

export const testKeyring = (): Keyring => createKeyring(new Uint8Array(randomBytes(32)));

/** The shared fixture's workspace: owner, admin, viewer and a repository, no job. */
export const seedTenant = (db: Db, name = "acme"): Promise<Tenant> =>
  seedSharedTenant(db, { name });

export function tool(
  name: string,
  mayChangeData = false,
  inputSchema: Record<string, unknown> = { type: "object", properties: { q: { type: "string" } } },
): DiscoveredTool {
  return { name, inputSchema, mayChangeData };
}

/** An owner-made connection with discovered tools and an allowed subset. */
export async function seedConnection(
  db: Db,
  keyring: Keyring,
  tenant: Tenant,
  options: {
    kind: ConnectionKind;
    label: string;
    tools: DiscoveredTool[];
    allowed: string[];
    credential?: string;
    authType?: ConnectionAuth;
    endpoint?: string;
    settings?: Record<string, unknown>;
    oauth?: CreateConnectionInput["oauth"];
  },
): Promise<string> {
  const ctx = { db, keyring, actor: { userId: tenant.ownerId }, workspaceId: tenant.workspaceId };
  const { id } = await createConnection(ctx, {
    kind: options.kind,
    label: options.label,
    endpoint: options.endpoint ?? "https://service.example/mcp",
    authType: options.authType ?? (options.credential ? "BEARER" : "NONE"),
    credential: options.credential ?? null,
    settings: options.settings ?? {},
    oauth: options.oauth,
  });
  await storeDiscoveredTools(ctx, { connectionId: id, tools: options.tools });
  await setAllowedTools(ctx, { connectionId: id, tools: options.allowed });
  return id;
}

/** A GitHub App connection (a PEM-shaped stand-in key: nothing here signs with it). */
export const seedAppConnection = (db: Db, keyring: Keyring, tenant: Tenant): Promise<string> =>
  seedConnection(db, keyring, tenant, {
    kind: "GITHUB",
    label: `app-${randomUUID().slice(0, 8)}`,
    endpoint: "https://api.github.com",
    authType: "GITHUB_APP",
    credential: "-----BEGIN RSA PRIVATE KEY-----\nstand-in\n-----END RSA PRIVATE KEY-----\n",
    settings: { appId: 12345, installationId: 678 },
    tools: [],
    allowed: [],
  });

export function job(
  key: string,
  tools: RepoJob["tools"],
  overrides: Partial<DeclaredJob> = {},
): DeclaredJob {
  return {
    key,
    name: key,
    description: null,
    prompt: "do the thing",
    schedule: null,
    timezone: "UTC",
    model: null,
    tokenBudget: 100_000,
    timeoutSeconds: 600,
    tools,
    ...overrides,
  };
}

export async function createRun(
  db: Db,
  workspaceId: string,
  jobId: string,
  status: "QUEUED" | "RUNNING" = "RUNNING",
): Promise<string> {
  const run = await db.run.create({
    data: { workspaceId, jobId, trigger: "MANUAL", status, budgetTokens: 100_000 },
  });
  return run.id;
}

/** A proposed output of a run (state HELD unless said), written directly as finalize would. */
export async function seedOutput(
  db: Db,
  tenant: Pick<Tenant, "workspaceId" | "repositoryId">,
  options: { state?: OutputState; runId?: string; jobId?: string } = {},
): Promise<{ outputId: string; runId: string; jobId: string }> {
  const jobId = options.jobId ?? (await seedJob(db, tenant));
  const runId = options.runId ?? (await createRun(db, tenant.workspaceId, jobId));
  const seq = await db.runOutput.count({ where: { runId } });
  const row = await db.runOutput.create({
    data: {
      workspaceId: tenant.workspaceId,
      runId,
      jobId,
      seq,
      kind: "comment",
      state: options.state ?? "HELD",
      payload: { number: 7, body: "Looks good to me." },
      reason: "Held for an owner's approval (the grant's mode).",
    },
  });
  return { outputId: row.id, runId, jobId };
}

/** An approved job written directly (no sync, no grant): enough for run / schedule use cases. */
export async function seedJob(
  db: Db,
  tenant: Pick<Tenant, "workspaceId" | "repositoryId">,
  overrides: { status?: JobStatus; enabled?: boolean } = {},
): Promise<string> {
  const key = `job-${randomUUID().slice(0, 8)}`;
  const row = await db.job.create({
    data: {
      workspaceId: tenant.workspaceId,
      repositoryId: tenant.repositoryId,
      key,
      name: key,
      prompt: "Do the thing.",
      schedule: "0 9 * * *",
      tokenBudget: 10_000,
      timeoutSeconds: 60,
      requestedTools: [],
      requestHash: "h",
      status: overrides.status ?? "APPROVED",
      enabled: overrides.enabled ?? true,
      configCommit: "0".repeat(40),
    },
  });
  return row.id;
}

/** A FAILED webhook delivery of a finished run (ciphertexts are placeholders: never sent). */
export async function seedFailedDelivery(
  db: Db,
  tenant: Pick<Tenant, "workspaceId" | "repositoryId">,
): Promise<string> {
  const jobId = await seedJob(db, tenant);
  const run = await db.run.create({
    data: {
      workspaceId: tenant.workspaceId,
      jobId,
      trigger: "MANUAL",
      status: "SUCCEEDED",
      budgetTokens: 1_000,
    },
  });
  const webhook = await db.webhook.create({
    data: {
      workspaceId: tenant.workspaceId,
      name: "ci",
      urlCiphertext: new Uint8Array([1]),
      secretCiphertext: new Uint8Array([2]),
    },
  });
  const delivery = await db.webhookDelivery.create({
    data: {
      workspaceId: tenant.workspaceId,
      webhookId: webhook.id,
      runId: run.id,
      status: "FAILED",
      attemptCount: 8,
    },
  });
  return delivery.id;
}

export interface RecordedServices extends WorkspaceServices {
  calls: Array<{ name: keyof WorkspaceServices; arg: unknown }>;
}

/** A WorkspaceServices that records each call (queues are tested in @secondshift/scheduler). */
export function recordingServices(): RecordedServices {
  const calls: RecordedServices["calls"] = [];
  const record = (name: keyof WorkspaceServices, arg: unknown) => {
    calls.push({ name, arg });
    return Promise.resolve();
  };
  return {
    calls,
    enqueueRun: (arg) => record("enqueueRun", arg),
    syncSchedules: (arg) => record("syncSchedules", arg),
    requestSync: (arg) => record("requestSync", arg),
    enqueueOutputApply: (arg) => record("enqueueOutputApply", arg),
  };
}

/** The context a member of `tenant` acts in. */
export function actorContext(
  db: Db,
  tenant: Pick<Tenant, "workspaceId">,
  userId: string,
  extra: Pick<
    ActorContext,
    "services" | "keyring" | "now" | "discovery" | "outbound" | "mcpOAuth" | "destinations"
  > = {},
): ActorContext {
  return { db, actor: { userId }, workspaceId: tenant.workspaceId, ...extra };
}

/**
 * A ToolDiscovery that answers with fixed tools and records who asked, for authorization tests
 * (the real one, over netguard against a real MCP server, is tested in @secondshift/api).
 */
export function staticDiscovery(
  tools: DiscoveredTool[],
): ToolDiscovery & { calls: Array<{ workspaceId: string; connectionId: string }> } {
  const calls: Array<{ workspaceId: string; connectionId: string }> = [];
  return {
    calls,
    discover: (connection) => {
      calls.push(connection);
      return Promise.resolve(tools);
    },
  };
}

/** A guarded-fetch stand-in that answers every request with a models list (authorization tests). */
export function modelsListFetch(models: string[] = ["model-a"]) {
  const requests: string[] = [];
  const fetch = (input: string | URL) => {
    requests.push(String(input));
    return Promise.resolve(
      Response.json({ data: models.map((id) => ({ id, type: "model" })), has_more: false }),
    );
  };
  return { fetch, requests };
}

/**
 * An McpAuthorizer that answers without a network (authorization tests): begin returns an
 * authorization URL carrying the state, finish issues fixed tokens. The real one is tested
 * against a loopback authorization server in @secondshift/api.
 */
export function stubAuthorizer(): McpAuthorizer & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    begin: ({ state, session }) => {
      calls.push("begin");
      session.codeVerifier = "stub-verifier";
      return Promise.resolve(`https://auth.example.test/authorize?state=${state}`);
    },
    finish: ({ session }) => {
      calls.push("finish");
      session.tokens = { access_token: "stub-access", refresh_token: "stub-refresh" };
      return Promise.resolve();
    },
  };
}

/**
 * The job row a repository sync leaves for a new or changed request: NEEDS_APPROVAL with the
 * request's hash (an unchanged request keeps its status). Domain tests start from it; the sync
 * itself, with its audit rows and removals, is @secondshift/repo-sync's upsertJobsFromConfig.
 */
export async function requestJob(
  db: Db,
  tenant: Pick<Tenant, "workspaceId" | "repositoryId">,
  declared: DeclaredJob,
): Promise<{ jobId: string; status: JobStatus }> {
  const requestedTools = normaliseRequest(declared.tools);
  const requestedOutputs = readRequestedOutputs(declared.outputs ?? {});
  const requestedTriggers = readRequestedTriggers(declared.triggers ?? {});
  const hash = requestHash(requestedTools, requestedOutputs, requestedTriggers);
  const { key, tools: _tools, outputs: _outputs, triggers: _triggers, ...fields } = declared;
  const data = {
    ...fields,
    requestedTools: requestedTools as unknown as Prisma.InputJsonValue,
    requestedOutputs: requestedOutputs as unknown as Prisma.InputJsonValue,
    requestedTriggers: requestedTriggers as unknown as Prisma.InputJsonValue,
    requestHash: hash,
    configCommit: "c1",
  };
  const where = { repositoryId_key: { repositoryId: tenant.repositoryId, key } };
  const previous = await db.job.findUnique({ where, select: { requestHash: true } });
  const status: JobStatus | undefined =
    previous?.requestHash === hash ? undefined : "NEEDS_APPROVAL";
  const row = await db.job.upsert({
    where,
    create: {
      ...data,
      key,
      workspaceId: tenant.workspaceId,
      repositoryId: tenant.repositoryId,
      status: "NEEDS_APPROVAL",
    },
    update: { ...data, ...(status ? { status } : {}) },
  });
  return { jobId: row.id, status: row.status };
}

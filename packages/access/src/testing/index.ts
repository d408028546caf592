// Test fixtures shared by access and broker tests: a workspace with an owner, an admin and a
// viewer, a repository, and a second workspace for isolation tests.
import { randomBytes, randomUUID } from "node:crypto";
import type { RepoJob } from "@secondshift/config";
import { createKeyring, type Keyring } from "@secondshift/crypto";
import type { ConnectionAuth, ConnectionKind, Db } from "@secondshift/db";
import { createConnection, setAllowedTools, storeDiscoveredTools } from "../connections.ts";
import type { SyncedJob } from "../sync-jobs.ts";
import type { DiscoveredTool } from "../tools.ts";

export interface Tenant {
  workspaceId: string;
  ownerId: string;
  adminId: string;
  viewerId: string;
  repositoryId: string;
}

export const testKeyring = (): Keyring => createKeyring(new Uint8Array(randomBytes(32)));

export async function seedTenant(db: Db, name = "acme"): Promise<Tenant> {
  const suffix = randomUUID().slice(0, 8);
  const workspace = await db.workspace.create({ data: { slug: `${name}-${suffix}`, name } });
  const user = (role: string) =>
    db.user.create({
      data: { email: `${role}-${suffix}@${name}.test`, name: role, passwordHash: "x" },
    });
  const [owner, admin, viewer] = await Promise.all([user("owner"), user("admin"), user("viewer")]);
  await db.membership.createMany({
    data: [
      { workspaceId: workspace.id, userId: owner.id, role: "OWNER" },
      { workspaceId: workspace.id, userId: admin.id, role: "ADMIN" },
      { workspaceId: workspace.id, userId: viewer.id, role: "VIEWER" },
    ],
  });
  const repo = await db.repository.create({
    data: {
      workspaceId: workspace.id,
      fullName: `${name}/app`,
      cloneUrl: `https://github.com/${name}/app-${suffix}.git`,
    },
  });
  return {
    workspaceId: workspace.id,
    ownerId: owner.id,
    adminId: admin.id,
    viewerId: viewer.id,
    repositoryId: repo.id,
  };
}

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
    oauth?: Parameters<typeof createConnection>[0]["oauth"];
  },
): Promise<string> {
  const ctx = { db, actor: { userId: tenant.ownerId }, workspaceId: tenant.workspaceId };
  const { id } = await createConnection({
    ...ctx,
    keyring,
    kind: options.kind,
    label: options.label,
    endpoint: options.endpoint ?? "https://service.example/mcp",
    authType: options.authType ?? (options.credential ? "BEARER" : "NONE"),
    credential: options.credential ?? null,
    settings: options.settings ?? {},
    oauth: options.oauth,
  });
  await storeDiscoveredTools({ ...ctx, connectionId: id, tools: options.tools });
  await setAllowedTools({ ...ctx, connectionId: id, tools: options.allowed });
  return id;
}

export function job(
  key: string,
  tools: RepoJob["tools"],
  overrides: Partial<SyncedJob> = {},
): SyncedJob {
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

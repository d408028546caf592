// One seeding fixture for every package's tests: a workspace with an owner, an admin and a
// viewer, a repository and an approved job; runs on demand. Rows only — anything that needs a
// package's logic (connections, grants, plans) is built by that package's own helpers on top.
import { randomUUID } from "node:crypto";
import type { Db } from "../client.ts";
import type { JobStatus, RunStatus } from "../generated/enums.ts";

/** A workspace with an owner, an admin and a viewer, and one repository. */
export interface SeededTenant {
  workspaceId: string;
  ownerId: string;
  adminId: string;
  viewerId: string;
  repositoryId: string;
}

/** The tenant plus an approved job of its repository. */
export interface SeededWorkspace extends SeededTenant {
  jobId: string;
}

export interface SeedOptions {
  name?: string;
  /** The seeded job's key in the repository's config (default "triage"). */
  jobKey?: string;
  maxConcurrentRuns?: number;
  jobStatus?: JobStatus;
  tokenBudget?: number;
  timeoutSeconds?: number;
  /** Also a default model provider (its key ciphertext is a placeholder). */
  withProvider?: boolean;
}

export async function seedWorkspace(db: Db, options: SeedOptions = {}): Promise<SeededWorkspace> {
  const tenant = await seedTenant(db, options);
  const job = await db.job.create({
    data: {
      workspaceId: tenant.workspaceId,
      repositoryId: tenant.repositoryId,
      key: options.jobKey ?? "triage",
      name: "Triage",
      prompt: "Do the thing.",
      tokenBudget: options.tokenBudget ?? 10_000,
      timeoutSeconds: options.timeoutSeconds ?? 60,
      requestedTools: [],
      requestHash: "h",
      status: options.jobStatus ?? "APPROVED",
      configCommit: "0".repeat(40),
    },
  });
  return { ...tenant, jobId: job.id };
}

/** The workspace, its three members and a repository, without a job. */
export async function seedTenant(
  db: Db,
  options: Pick<SeedOptions, "name" | "maxConcurrentRuns" | "withProvider"> = {},
): Promise<SeededTenant> {
  const name = options.name ?? "acme";
  const suffix = randomUUID().slice(0, 8);
  const workspace = await db.workspace.create({
    data: { slug: `${name}-${suffix}`, name, maxConcurrentRuns: options.maxConcurrentRuns ?? 2 },
  });
  const [ownerId, adminId, viewerId] = await Promise.all(
    (["OWNER", "ADMIN", "VIEWER"] as const).map(async (role) => {
      const user = await db.user.create({
        data: {
          email: `${role.toLowerCase()}-${suffix}@${name}.test`,
          name: role,
          passwordHash: "x",
        },
      });
      await db.membership.create({ data: { workspaceId: workspace.id, userId: user.id, role } });
      return user.id;
    }),
  );
  if (options.withProvider) {
    await db.modelProvider.create({
      data: {
        workspaceId: workspace.id,
        name: "default",
        kind: "ANTHROPIC",
        baseUrl: "https://api.anthropic.com",
        apiKeyCiphertext: new Uint8Array([1]),
        defaultModel: "claude-test",
        isDefault: true,
      },
    });
  }
  const repository = await db.repository.create({
    data: {
      workspaceId: workspace.id,
      fullName: `${name}/app`,
      cloneUrl: `https://github.com/${name}/app-${suffix}.git`,
    },
  });
  return {
    workspaceId: workspace.id,
    ownerId: ownerId!,
    adminId: adminId!,
    viewerId: viewerId!,
    repositoryId: repository.id,
  };
}

/** A run of the seeded job, written directly in the given status (test set-up only). */
export async function seedRun(
  db: Db,
  seed: Pick<SeededWorkspace, "workspaceId" | "jobId">,
  options: { status?: RunStatus; budgetTokens?: number; workerId?: string } = {},
): Promise<{ id: string; workspaceId: string }> {
  const status = options.status ?? "QUEUED";
  const run = await db.run.create({
    data: {
      workspaceId: seed.workspaceId,
      jobId: seed.jobId,
      trigger: "MANUAL",
      status,
      budgetTokens: options.budgetTokens ?? 10_000,
      workerId: options.workerId ?? null,
      startedAt: status === "QUEUED" ? null : new Date(),
      heartbeatAt: status === "RUNNING" ? new Date() : null,
    },
    select: { id: true, workspaceId: true },
  });
  return run;
}

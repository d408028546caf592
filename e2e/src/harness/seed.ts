// A workspace as an owner would set it up: a model provider, an MCP connection with a
// credential and chosen tools, a repository whose committed .secondshift.yaml declares a job,
// the job synced and approved, and a webhook. Every secret is a planted value that tests later
// search for everywhere it must not be.
import { execFileSync } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { approveJob, createConnection, setAllowedTools } from "@secondshift/domain";
import { listConnectionTools } from "@secondshift/broker";
import { encryptField } from "@secondshift/crypto";
import { syncRepository } from "@secondshift/repo-sync";
import { actAs } from "./actor.ts";
import type { Platform } from "./platform.ts";

export interface Planted {
  providerKey: string;
  mcpCredential: string;
  webhookSecret: string;
  webhookUrlPath: string;
}

export function plantedSecrets(): Planted {
  return {
    providerKey: `sk-ant-planted-${randomBytes(12).toString("hex")}`,
    mcpCredential: `mcp-planted-${randomBytes(12).toString("hex")}`,
    webhookSecret: `whsec-planted-${randomBytes(12).toString("hex")}`,
    webhookUrlPath: `/hooks/planted-${randomBytes(6).toString("hex")}`,
  };
}

export function git(dir: string, ...args: string[]): string {
  return execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@example.test", "-c", "commit.gpgsign=false", ...args],
    {
      cwd: dir,
      encoding: "utf8",
      env: { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: "1" },
    },
  ).trim();
}

/** A local repository (served as file://) with the given files committed on main. */
export function createRepository(files: Record<string, string>): {
  dir: string;
  commit(files: Record<string, string>, message?: string): string;
} {
  const dir = mkdtempSync(join(tmpdir(), "e2e-repo-"));
  git(dir, "init", "-q", "-b", "main");
  const commit = (next: Record<string, string>, message = "change") => {
    for (const [path, content] of Object.entries(next)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", message);
    return git(dir, "rev-parse", "HEAD");
  };
  commit(files, "initial");
  return { dir, commit };
}

export function jobYaml(
  jobs: Array<{
    key: string;
    schedule?: string;
    tools?: string[];
    budget?: number;
    timeoutMinutes?: number;
    prompt?: string;
  }>,
  mcpLabel = "everything",
): string {
  const lines = ["version: 1", "jobs:"];
  for (const job of jobs) {
    lines.push(
      `  ${job.key}:`,
      `    name: Job ${job.key}`,
      `    prompt: ${JSON.stringify(job.prompt ?? "Look at the repository and report.")}`,
    );
    if (job.schedule) lines.push(`    schedule: "${job.schedule}"`);
    if (job.budget) lines.push(`    tokenBudget: ${job.budget}`);
    if (job.timeoutMinutes) lines.push(`    timeoutMinutes: ${job.timeoutMinutes}`);
    if (job.tools?.length) {
      lines.push(
        "    tools:",
        "      mcp:",
        `        - label: ${mcpLabel}`,
        "          required: true",
        `          tools: [${job.tools.join(", ")}]`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

export interface SeededWorkspace {
  workspaceId: string;
  ownerId: string;
  adminId: string;
  connectionId: string;
  repositoryId: string;
  providerId: string;
  webhookId: string | null;
}

export async function seedWorkspace(
  p: Platform,
  options: {
    planted: Planted;
    /** Without it the workspace gets no MCP connection (jobs that use no broker tools). */
    mcpUrl?: string;
    repoDir: string;
    allowedTools?: string[];
    webhookUrl?: string;
    maxConcurrentRuns?: number;
  },
): Promise<SeededWorkspace> {
  const { db } = p.t;
  const suffix = randomUUID().slice(0, 8);
  const workspace = await db.workspace.create({
    data: { slug: `ws-${suffix}`, name: "Acme", maxConcurrentRuns: options.maxConcurrentRuns ?? 2 },
  });
  const owner = await db.user.create({
    data: { email: `owner-${suffix}@example.test`, name: "Owner", passwordHash: "x" },
  });
  const admin = await db.user.create({
    data: { email: `admin-${suffix}@example.test`, name: "Admin", passwordHash: "x" },
  });
  await db.membership.createMany({
    data: [
      { workspaceId: workspace.id, userId: owner.id, role: "OWNER" },
      { workspaceId: workspace.id, userId: admin.id, role: "ADMIN" },
    ],
  });
  const ctx = actAs(p, workspace.id, owner.id);

  const providerId = randomUUID();
  await db.modelProvider.create({
    data: {
      id: providerId,
      workspaceId: workspace.id,
      name: "anthropic",
      kind: "ANTHROPIC",
      baseUrl: p.model.url,
      defaultModel: "claude-test",
      isDefault: true,
      apiKeyCiphertext: await encryptField(p.keyring, options.planted.providerKey, {
        workspaceId: workspace.id,
        table: "ModelProvider",
        rowId: providerId,
        field: "apiKeyCiphertext",
      }),
    },
  });

  let connectionId = "";
  if (options.mcpUrl) {
    ({ id: connectionId } = await createConnection(ctx, {
      kind: "MCP",
      label: "everything",
      endpoint: options.mcpUrl,
      authType: "BEARER",
      credential: options.planted.mcpCredential,
    }));
    await listConnectionTools({
      ...ctx,
      keyring: p.keyring,
      connectors: p.worker.connectors,
      connectionId,
      timeoutMs: 20_000,
    });
    await setAllowedTools(ctx, {
      connectionId,
      tools: options.allowedTools ?? [],
    });
  }

  const repository = await db.repository.create({
    data: {
      workspaceId: workspace.id,
      fullName: "acme/app",
      cloneUrl: `file://${options.repoDir}`,
      defaultBranch: "main",
    },
  });

  let webhookId: string | null = null;
  if (options.webhookUrl) {
    webhookId = randomUUID();
    const binding = (field: string) => ({
      workspaceId: workspace.id,
      table: "Webhook",
      rowId: webhookId!,
      field,
    });
    await db.webhook.create({
      data: {
        id: webhookId,
        workspaceId: workspace.id,
        name: "reports",
        urlCiphertext: await encryptField(p.keyring, options.webhookUrl, binding("urlCiphertext")),
        secretCiphertext: await encryptField(
          p.keyring,
          options.planted.webhookSecret,
          binding("secretCiphertext"),
        ),
      },
    });
  }
  return {
    workspaceId: workspace.id,
    ownerId: owner.id,
    adminId: admin.id,
    connectionId,
    repositoryId: repository.id,
    providerId,
    webhookId,
  };
}

/** Syncs the repository and approves every job that needs it, binding MCP groups to the connection. */
export async function syncAndApprove(p: Platform, ws: SeededWorkspace): Promise<void> {
  const result = await syncRepository(p.t.db, p.worker.syncDeps, {
    workspaceId: ws.workspaceId,
    repositoryId: ws.repositoryId,
  });
  if (result.status !== "synced") throw new Error(`sync failed: ${JSON.stringify(result)}`);
  for (const job of await p.t.db.job.findMany({
    where: { workspaceId: ws.workspaceId, status: "NEEDS_APPROVAL" },
  })) {
    await approveJob(actAs(p, ws.workspaceId, ws.ownerId), {
      jobId: job.id,
      requestHash: job.requestHash,
      bindings: { "MCP:everything": ws.connectionId },
    });
  }
}

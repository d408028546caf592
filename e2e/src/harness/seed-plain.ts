// A workspace for scenarios whose jobs use no broker tools (crash, retry, load, benchmark):
// owner and admin, the model provider with its planted key, the repository and optionally a
// webhook — no MCP connection, so no MCP server is needed. Same shape as seedWorkspace's result
// (connectionId is empty).
import { randomUUID } from "node:crypto";
import { approveJob } from "@secondshift/access";
import { encryptField } from "@secondshift/crypto";
import { syncRepository } from "@secondshift/repo-sync";
import type { Platform } from "./platform.ts";
import type { Planted, SeededWorkspace } from "./seed.ts";

export async function seedPlainWorkspace(
  p: Platform,
  options: { planted: Planted; repoDir: string; webhookUrl?: string; maxConcurrentRuns?: number },
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
    connectionId: "",
    repositoryId: repository.id,
    providerId,
    webhookId,
  };
}

/** Syncs the repository and approves every job waiting for approval, with no tool bindings. */
export async function syncAndApproveAll(p: Platform, ws: SeededWorkspace): Promise<number> {
  const result = await syncRepository(p.t.db, p.worker.syncDeps, {
    workspaceId: ws.workspaceId,
    repositoryId: ws.repositoryId,
  });
  if (result.status !== "synced") throw new Error(`sync failed: ${JSON.stringify(result)}`);
  const jobs = await p.t.db.job.findMany({
    where: { workspaceId: ws.workspaceId, status: "NEEDS_APPROVAL" },
  });
  for (const job of jobs) {
    await approveJob({
      db: p.t.db,
      actor: { userId: ws.ownerId },
      workspaceId: ws.workspaceId,
      jobId: job.id,
      requestHash: job.requestHash,
    });
  }
  return jobs.length;
}

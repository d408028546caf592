// Database rows for executor tests: a workspace with a provider, a repository, an approved job
// and a claimed (RUNNING) run.
import { randomUUID } from "node:crypto";
import type { Db } from "@secondshift/db";

export async function seedRunningRun(
  db: Db,
  options: { withProvider?: boolean; timeoutSeconds?: number } = {},
) {
  const workspace = await db.workspace.create({ data: { slug: `ws-${randomUUID()}`, name: "W" } });
  if (options.withProvider !== false) {
    await db.modelProvider.create({
      data: {
        workspaceId: workspace.id,
        name: "p",
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
      fullName: "acme/app",
      cloneUrl: `https://git.example.com/${randomUUID()}.git`,
    },
  });
  const job = await db.job.create({
    data: {
      workspaceId: workspace.id,
      repositoryId: repository.id,
      key: "triage",
      name: "Triage",
      prompt: "Do the thing.",
      tokenBudget: 10_000,
      timeoutSeconds: options.timeoutSeconds ?? 60,
      requestedTools: [],
      requestHash: "h",
      status: "APPROVED",
      configCommit: "c0",
    },
  });
  const run = await db.run.create({
    data: {
      workspaceId: workspace.id,
      jobId: job.id,
      trigger: "MANUAL",
      status: "RUNNING",
      budgetTokens: 10_000,
      startedAt: new Date(),
    },
  });
  return { workspace, repository, job, run };
}

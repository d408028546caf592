// A workspace for scenarios whose jobs use no broker tools (crash, retry, load, benchmark):
// owner and admin, the model provider with its planted key, the repository and optionally a
// webhook — no MCP connection, so no MCP server is needed. Same shape as seedWorkspace's result
// (connectionId is empty).
import { approveJob } from "@secondshift/domain";
import { syncRepository } from "@secondshift/repo-sync";
import { actAs } from "./actor.ts";
import type { Platform } from "./platform.ts";
import { seedWorkspace, type Planted, type SeededWorkspace } from "./seed.ts";

export function seedPlainWorkspace(
  p: Platform,
  options: { planted: Planted; repoDir: string; webhookUrl?: string; maxConcurrentRuns?: number },
): Promise<SeededWorkspace> {
  return seedWorkspace(p, options);
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
    await approveJob(actAs(p, ws.workspaceId, ws.ownerId), {
      jobId: job.id,
      requestHash: job.requestHash,
    });
  }
  return jobs.length;
}

// At the end of the agent loop, while the sandbox still exists: the run's proposed pull request
// gets its files (collectChanges), its base (the run commit, the repository's default branch)
// and its head branch (`secondshift/<job>-<run>`), with the granted draft flag and labels. What
// could not be collected is stored as the proposal's `problem`; finalize refuses it with that.
import type { Db, Prisma } from "@secondshift/db";
import { OUTPUT_CAPS, pullRequestBranch, type PullRequestProposal } from "@secondshift/vocabulary";
import { grantedOutputsOfRun } from "../check/check-run.ts";
import { collectChanges, type BaseTree } from "./collect-changes.ts";
import type { ExecSandbox } from "./workspace-index.ts";

export interface RunSource {
  sandbox: ExecSandbox;
  /** The run commit's tree through the worker's own git; absent: no pull request can be made. */
  base: (() => Promise<BaseTree>) | undefined;
  commit: string;
  jobKey: string;
  defaultBranch: string;
}

const COLLECT_TIMEOUT_MS = 180_000;

export async function attachPullRequestChanges(
  db: Db,
  run: { id: string; workspaceId: string },
  source: RunSource,
): Promise<"none" | "attached" | "problem"> {
  const output = await db.runOutput.findFirst({
    where: { runId: run.id, workspaceId: run.workspaceId, kind: "pull_request", state: "PROPOSED" },
    orderBy: { seq: "asc" },
  });
  if (!output) return "none";
  const proposed = (output.payload ?? {}) as { title?: unknown; body?: unknown };
  const grant = (await grantedOutputsOfRun(db, run)).pull_request;
  const collected =
    grant && source.base
      ? await collectChanges(source.sandbox, await source.base(), {
          maxFiles: grant.maxFiles,
          maxFileBytes: OUTPUT_CAPS.maxPullRequestFileBytes,
          maxTotalBytes: OUTPUT_CAPS.maxPullRequestBytes,
          timeoutMs: COLLECT_TIMEOUT_MS,
        }).catch(() => ({ problem: "the run's changes could not be read from its sandbox" }))
      : { problem: "the run's changes cannot be compared with its commit" };
  const payload: Omit<PullRequestProposal, "files"> & { files?: unknown; problem?: string } = {
    title: typeof proposed.title === "string" ? proposed.title : "",
    body: typeof proposed.body === "string" ? proposed.body : "",
    draft: grant?.draft ?? true,
    labels: grant?.labels ?? [],
    baseSha: source.commit,
    baseBranch: source.defaultBranch,
    headBranch: pullRequestBranch(source.jobKey, run.id),
    ...("files" in collected ? { files: collected.files } : { problem: collected.problem }),
  };
  await db.runOutput.updateMany({
    where: { id: output.id, state: "PROPOSED" },
    data: { payload: payload as unknown as Prisma.InputJsonValue },
  });
  return "files" in collected ? "attached" : "problem";
}

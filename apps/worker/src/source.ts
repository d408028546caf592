// The repository at a run's commit, fetched outside any sandbox with the owner's credential,
// measured against the operator's limits from git's metadata, and streamed into the sandbox
// without .git (`git archive`), so the sandbox copy holds no credential and no remote URL and
// the worker's disk never holds a second, expanded copy. A GitHub App connection's token is
// minted for this fetch, masked for the run and revoked after the fetch. The run also gets the
// repository's recent history (exportHistory: a fresh .git with no remote), bounded by the
// operator's commit count and bytes; the fetch's depth and byte cap grow by as much.
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { SecretMasker } from "@secondshift/logging";
import {
  checkTreeSize,
  exportHistory,
  exportTree,
  fetchByteCap,
  fetchRepository,
  gitCredential,
  listCommitTree,
  readObject,
  repositoryCredential,
  type GitRemotePolicy,
  type HistoryLimits,
  type MintInstallationToken,
  type RepositoryCredential,
  type TreeLimits,
} from "@secondshift/repo-sync";
import type { SourceProvider } from "@secondshift/runs";

/** What the history adds to the fetch: nothing when it is off. */
function historyBytes(history: HistoryLimits): number {
  return history.maxCommits > 1 ? history.maxBytes : 0;
}

export function createSourceProvider(deps: {
  db: Db;
  keyring: Keyring;
  policy: GitRemotePolicy;
  masker: SecretMasker;
  mintInstallationToken: MintInstallationToken;
  /** The worker's own work folder (emptied at start): the fetch and the copy live there. */
  workDir: string;
  limits: TreeLimits;
  history: HistoryLimits;
}): SourceProvider {
  return {
    async checkout({ runId, workspaceId, repositoryId, commit }) {
      const repo = await deps.db.repository.findFirst({
        where: { id: repositoryId, workspaceId },
        include: { connection: true },
      });
      if (!repo)
        throw new AppError("NOT_FOUND", "The job's repository no longer exists.", {
          reason: "REPOSITORY_NOT_FOUND",
        });
      const gitDir = await mkdtemp(join(deps.workDir, "checkout-"));
      const cleanup = () => rm(gitDir, { recursive: true, force: true });
      // The run's scope (opened by the executor): masked until the run ends, then gone (P02).
      const secrets = deps.masker.scopeFor(runId);
      let credential: RepositoryCredential | undefined;
      try {
        credential = await repositoryCredential(
          deps.keyring,
          repo.connection,
          repo.fullName,
          deps.mintInstallationToken,
        );
        if (credential) secrets.add(credential.password);
        const target = commit ?? repo.lastSyncedCommit;
        const fetched = await fetchRepository({
          cloneUrl: repo.cloneUrl,
          ref: target ? { commit: target } : { branch: repo.defaultBranch },
          ...(credential ? { credential: gitCredential(credential) } : {}),
          dir: gitDir,
          workDir: deps.workDir,
          policy: deps.policy,
          masker: secrets,
          // The download is bounded while git runs; the tree itself is checked next.
          maxFetchBytes: fetchByteCap(deps.limits.maxBytes) + historyBytes(deps.history),
          depth: Math.max(1, deps.history.maxCommits),
        });
        // Before anything is exported: a refused repository is never written out (C12).
        await checkTreeSize(gitDir, fetched.commit, deps.limits);
        return {
          commit: fetched.commit,
          archive: () => exportTree(gitDir, fetched.commit, { workDir: deps.workDir }),
          tree: async () => ({
            entries: await listCommitTree(gitDir, fetched.commit),
            read: (sha: string, maxBytes: number) => readObject(gitDir, sha, maxBytes),
          }),
          history: async () => {
            // Inside the checkout's folder, so the checkout's cleanup removes it in any case.
            const history = await exportHistory(gitDir, fetched.commit, {
              workDir: gitDir,
              limits: deps.history,
              branch: repo.defaultBranch,
            });
            if (!history) return null;
            const archive = history.archive();
            // The history's folder goes once its stream is read (or given up).
            archive.once("close", () => void history.cleanup());
            return archive;
          },
          cleanup,
        };
      } catch (error) {
        await cleanup();
        throw error;
      } finally {
        await credential?.revoke?.();
      }
    },
  };
}

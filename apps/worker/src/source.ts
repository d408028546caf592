// The repository at a run's commit, fetched outside any sandbox with the owner's credential,
// measured against the operator's limits from git's metadata, and streamed into the sandbox
// without .git (`git archive`), so the sandbox copy holds no credential and no remote URL and
// the worker's disk never holds a second, expanded copy.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { SecretMasker } from "@secondshift/logging";
import {
  checkTreeSize,
  exportTree,
  fetchRepository,
  repositoryCredential,
  type GitRemotePolicy,
  type TreeLimits,
} from "@secondshift/repo-sync";
import type { SourceProvider } from "@secondshift/runs";

export function createSourceProvider(deps: {
  db: Db;
  keyring: Keyring;
  policy: GitRemotePolicy;
  masker: SecretMasker;
  limits: TreeLimits;
}): SourceProvider {
  return {
    async checkout({ workspaceId, repositoryId, commit }) {
      const repo = await deps.db.repository.findFirst({
        where: { id: repositoryId, workspaceId },
        include: { connection: true },
      });
      if (!repo)
        throw new AppError("NOT_FOUND", "The job's repository no longer exists.", {
          reason: "REPOSITORY_NOT_FOUND",
        });
      const credential = await repositoryCredential(deps.keyring, repo.connection, repo.fullName);
      const gitDir = await mkdtemp(join(tmpdir(), "secondshift-git-"));
      const cleanup = () => rm(gitDir, { recursive: true, force: true });
      // Masked while the fetch runs; it leaves the masker with the fetch (P02).
      const secrets = deps.masker.scope();
      if (credential) secrets.add(credential.password);
      try {
        const target = commit ?? repo.lastSyncedCommit;
        const fetched = await fetchRepository({
          cloneUrl: repo.cloneUrl,
          ref: target ? { commit: target } : { branch: repo.defaultBranch },
          ...(credential ? { credential } : {}),
          dir: gitDir,
          policy: deps.policy,
          masker: secrets,
        });
        // Before anything is exported: a refused repository is never written out (C12).
        await checkTreeSize(gitDir, fetched.commit, deps.limits);
        return {
          commit: fetched.commit,
          archive: () => exportTree(gitDir, fetched.commit),
          cleanup,
        };
      } catch (error) {
        await cleanup();
        throw error;
      } finally {
        secrets.close();
      }
    },
  };
}

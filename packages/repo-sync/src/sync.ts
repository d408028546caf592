// Repository sync (issue 6, item 1): fetch the default branch, read `.secondshift.yaml` and
// the prompt files it names from that commit, and upsert the jobs. A file with errors never
// touches the jobs: the errors (file, line, message) are stored on the repository for the UI
// and every job keeps its last valid state. Fetching happens outside any sandbox, in a folder
// under the worker's work folder that is removed afterwards.
import { mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { upsertJobsFromConfig, type SyncedJob, type UpsertJobsResult } from "./upsert-jobs.ts";
import {
  REPO_CONFIG_FILE,
  repoConfigCaps,
  type ConfigReader,
  type RepoConfigError,
  type RepoConfigLimits,
} from "@secondshift/config";
import type { Keyring } from "@secondshift/crypto";
import { Prisma, type Db } from "@secondshift/db";
import { AppError, isAppError } from "@secondshift/errors";
import { SecretMasker, type Logger } from "@secondshift/logging";
import {
  gitCredential,
  repositoryCredential,
  type MintInstallationToken,
  type RepositoryCredential,
} from "./credential.ts";
import { fetchRepository } from "./fetch-repository.ts";
import { readBlob } from "./read-blob.ts";
import type { GitRemotePolicy } from "./remote.ts";

export interface SyncDeps {
  keyring: Keyring;
  /** Reads `.secondshift.yaml` off the event loop, with a deadline (createConfigReader). */
  configReader: ConfigReader;
  policy: GitRemotePolicy;
  limits: RepoConfigLimits;
  logger: Logger;
  /** Masks the credential in git errors and logs; a fresh one is used if omitted. */
  masker?: SecretMasker;
  mintInstallationToken?: MintInstallationToken;
  /** The worker's own work folder: each sync's checkout and git home go there, nowhere else. */
  workDir: string;
  gitBinary?: string;
  timeoutMs?: number;
  /** Cap on the fetch's download (`fetchByteCap` of REPOSITORY_MAX_MB); unbounded if omitted. */
  maxFetchBytes?: number;
}

export type SyncResult =
  | { status: "synced"; commit: string; jobs: UpsertJobsResult["jobs"] }
  | { status: "config_errors"; commit: string; errors: RepoConfigError[] }
  | { status: "failed"; error: string; reason: string | undefined };

/** Prompt files are text for the model; the inline prompt's cap applies to them too. */
const MAX_PROMPT_FILE_BYTES = repoConfigCaps.maxPromptLength * 4;

async function readConfig(
  dir: string,
  home: string,
  commit: string,
  deps: { limits: RepoConfigLimits; configReader: ConfigReader },
) {
  const file = await readBlob(dir, home, commit, REPO_CONFIG_FILE, repoConfigCaps.maxFileBytes);
  if (!file.found) {
    return {
      ok: false as const,
      errors: [
        {
          file: REPO_CONFIG_FILE,
          line: 1,
          column: 1,
          path: "",
          message: `${REPO_CONFIG_FILE}: ${file.problem}`,
        },
      ],
    };
  }
  const parsed = await deps.configReader.parse(file.text, {
    file: REPO_CONFIG_FILE,
    limits: deps.limits,
  });
  if (!parsed.ok) return parsed;
  const jobs: SyncedJob[] = [];
  const errors: RepoConfigError[] = [];
  for (const { prompt, promptFile, ...job } of parsed.config.jobs) {
    if (promptFile === null) {
      jobs.push({ ...job, prompt: prompt ?? "" });
      continue;
    }
    const blob = await readBlob(dir, home, commit, promptFile, MAX_PROMPT_FILE_BYTES);
    if (!blob.found) {
      errors.push({
        file: promptFile,
        line: 1,
        column: 1,
        path: `jobs.${job.key}.promptFile`,
        message: `${promptFile}: ${blob.problem}`,
      });
    } else if (blob.text.length > repoConfigCaps.maxPromptLength) {
      errors.push({
        file: promptFile,
        line: 1,
        column: 1,
        path: `jobs.${job.key}.promptFile`,
        message: `${promptFile}: longer than ${repoConfigCaps.maxPromptLength} characters`,
      });
    } else {
      jobs.push({ ...job, prompt: blob.text });
    }
  }
  return errors.length > 0 ? { ok: false as const, errors } : { ok: true as const, jobs };
}

/** The stored form of errors for the UI: plain JSON objects. */
function storedErrors(errors: readonly RepoConfigError[]): Prisma.InputJsonArray {
  return errors.map(({ file, line, column, path, message }) => ({
    file,
    line,
    column,
    path,
    message,
  }));
}

/** The owner's request this sync answered is done (a request made during the sync stays). */
async function answerSyncRequest(db: Db, repositoryId: string, startedAt: Date): Promise<void> {
  await db.repository.updateMany({
    where: { id: repositoryId, syncRequestedAt: { lte: startedAt } },
    data: { syncRequestedAt: null },
  });
}

export async function syncRepository(
  db: Db,
  deps: SyncDeps,
  input: { workspaceId: string; repositoryId: string },
): Promise<SyncResult> {
  const repository = await db.repository.findFirst({
    where: { id: input.repositoryId, workspaceId: input.workspaceId },
    include: { connection: true },
  });
  if (repository === null)
    throw new AppError("NOT_FOUND", "That repository does not exist.", {
      reason: "REPOSITORY_NOT_FOUND",
    });
  const log = deps.logger.child({ workspaceId: input.workspaceId, repositoryId: repository.id });
  const startedAt = new Date();
  const scratch = await mkdtemp(join(deps.workDir, "sync-"));
  // The credential (a fresh installation token for GitHub Apps) leaves the masker with the sync.
  const masker = (deps.masker ?? new SecretMasker()).scope();
  let credential: RepositoryCredential | undefined;
  try {
    credential = await repositoryCredential(
      deps.keyring,
      repository.connection,
      repository.fullName,
      deps.mintInstallationToken,
    );
    if (credential) masker.add(credential.password);
    const dir = join(scratch, "repo");
    const { commit } = await fetchRepository({
      cloneUrl: repository.cloneUrl,
      ref: { branch: repository.defaultBranch },
      dir,
      workDir: scratch,
      policy: deps.policy,
      masker,
      ...(credential ? { credential: gitCredential(credential) } : {}),
      ...(deps.gitBinary ? { gitBinary: deps.gitBinary } : {}),
      ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}),
      ...(deps.maxFetchBytes ? { maxFetchBytes: deps.maxFetchBytes } : {}),
    });
    // A minted token is needed for the fetch only: revoked at once, not left to expire.
    await credential?.revoke?.();
    const config = await readConfig(dir, scratch, commit, deps);
    const now = new Date();
    if (!config.ok) {
      await db.repository.updateMany({
        where: { id: repository.id, workspaceId: input.workspaceId },
        data: {
          configErrors: storedErrors(config.errors),
          lastSyncedAt: now,
          lastSyncedCommit: commit,
          syncError: null,
        },
      });
      log.info(
        { commit, errors: config.errors.length },
        "repository config has errors; jobs unchanged",
      );
      return { status: "config_errors", commit, errors: config.errors };
    }
    const result = await upsertJobsFromConfig(db, {
      workspaceId: input.workspaceId,
      repositoryId: repository.id,
      commit,
      jobs: config.jobs,
    });
    await db.repository.updateMany({
      where: { id: repository.id, workspaceId: input.workspaceId },
      data: {
        configErrors: Prisma.DbNull,
        lastSyncedAt: now,
        lastSyncedCommit: commit,
        syncError: null,
      },
    });
    log.info({ commit, jobs: result.jobs.length }, "repository synced");
    return { status: "synced", commit, jobs: result.jobs };
  } catch (error) {
    // Fetch and credential problems are shown on the repository; jobs stay as they were.
    const message = masker.mask(
      isAppError(error) ? error.message : "The repository could not be synced.",
    );
    const reason = isAppError(error) ? error.reason : undefined;
    await db.repository.updateMany({
      where: { id: repository.id, workspaceId: input.workspaceId },
      data: { syncError: message },
    });
    log.warn({ reason, error: message }, "repository sync failed");
    return { status: "failed", error: message, reason };
  } finally {
    await credential?.revoke?.();
    masker.close();
    await answerSyncRequest(db, repository.id, startedAt);
    await rm(scratch, { recursive: true, force: true });
  }
}

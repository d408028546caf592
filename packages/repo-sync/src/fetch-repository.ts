// Fetches one commit of a repository into `dir` with the git CLI: the branch head or a given
// commit, shallow (depth 1, or `depth` commits of history for a run's sandbox), into git's
// object database only. Nothing is checked out: a small
// push can expand to gigabytes of files, and every reader (git archive for the sandbox copy,
// git cat-file for .secondshift.yaml) reads the objects, after the size checks. The remote URL is passed on the command
// line without credentials and is never stored (no `git remote add`, no FETCH_HEAD), so the
// checkout holds no URL with a token and no credential anywhere (C12, P03). With
// `maxFetchBytes` the download itself is bounded too, while git runs (fetch-watchdog.ts).
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AppError } from "@secondshift/errors";
import type { SecretMasker } from "@secondshift/logging";
import { fetchWithinCap } from "./fetch-watchdog.ts";
import { basicAuthorization, caBundleFile, gitEnv, type GitCredential } from "./git-env.ts";
import { runGit } from "./git.ts";
import { checkRemote, type GitRemotePolicy } from "./remote.ts";

export const FETCHED_REF = "refs/secondshift/fetched";
const NO_EXPORT_REWRITES = "* -export-subst -export-ignore\n";
const COMMIT_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export interface FetchRepositoryOptions {
  cloneUrl: string;
  /** The branch head, or an exact commit (full SHA). */
  ref: { branch: string } | { commit: string };
  credential?: GitCredential;
  /** Created if missing; a directory fetched into before by this function is reused. */
  dir: string;
  /** The caller's work folder (the worker's own): git's empty home for this fetch goes there. */
  workDir: string;
  policy: GitRemotePolicy;
  /** Whole fetch; default 120 s. */
  timeoutMs?: number;
  /**
   * Bytes the download may add to `dir`'s object database (`fetchByteCap` of the tree limit);
   * past it git is stopped and the fetch fails with REPOSITORY_TOO_LARGE. Unbounded if omitted.
   */
  maxFetchBytes?: number;
  /** Commits of history to fetch (the commit itself included); default 1. */
  depth?: number;
  /** Registered with the credential so git's error output is masked. */
  masker?: SecretMasker;
  gitBinary?: string;
}

export interface FetchRepositoryResult {
  commit: string;
}

async function isDirectory(path: string): Promise<boolean> {
  return stat(path)
    .then((s) => s.isDirectory())
    .catch(() => false);
}

function refspec(ref: FetchRepositoryOptions["ref"]): string {
  if ("commit" in ref) {
    if (!COMMIT_SHA.test(ref.commit)) {
      throw new AppError("BAD_REQUEST", "A commit must be given as its full hexadecimal SHA.", {
        reason: "INVALID_COMMIT",
      });
    }
    return `+${ref.commit}:${FETCHED_REF}`;
  }
  // Refuse what git would read as another refspec, a pattern or an option.
  if (
    !/^[A-Za-z0-9._/-]{1,200}$/.test(ref.branch) ||
    ref.branch.startsWith("-") ||
    ref.branch.includes("..")
  ) {
    throw new AppError("BAD_REQUEST", `"${ref.branch}" is not a valid branch name.`, {
      reason: "INVALID_BRANCH",
    });
  }
  return `+refs/heads/${ref.branch}:${FETCHED_REF}`;
}

export async function fetchRepository(
  options: FetchRepositoryOptions,
): Promise<FetchRepositoryResult> {
  const spec = refspec(options.ref);
  const remote = await checkRemote(options.cloneUrl, options.policy);
  if (options.credential !== undefined) {
    options.masker?.add(options.credential.password, basicAuthorization(options.credential));
  }
  const home = await mkdtemp(join(options.workDir, "git-home-"));
  const caBundle = await caBundleFile(home, options.policy.outbound.trustedCaCerts);
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  const git = (args: string[], withRemote = false, signal?: AbortSignal) =>
    runGit(args, {
      cwd: options.dir,
      env: gitEnv({
        home,
        ...(caBundle ? { caBundle } : {}),
        ...(withRemote
          ? { remote, ...(options.credential ? { credential: options.credential } : {}) }
          : {}),
      }),
      timeoutMs: Math.max(1_000, deadline - Date.now()),
      ...(options.masker ? { masker: options.masker } : {}),
      ...(options.gitBinary ? { gitBinary: options.gitBinary } : {}),
      ...(signal ? { signal } : {}),
    });
  try {
    await mkdir(options.dir, { recursive: true });
    if (!(await isDirectory(join(options.dir, ".git")))) await git(["init", "--quiet"]);
    // `git archive` then writes the commit's blobs as they are: an export-subst or
    // export-ignore in the repository's .gitattributes would make the sandbox's copy differ
    // from the commit its history says it is, a change the agent did not make in the diff.
    await mkdir(join(options.dir, ".git", "info"), { recursive: true });
    await writeFile(join(options.dir, ".git", "info", "attributes"), NO_EXPORT_REWRITES);
    // The credential is in the environment of this one command only.
    const fetch = (signal?: AbortSignal) =>
      git(
        [
          "fetch",
          "--quiet",
          "--no-tags",
          "--no-write-fetch-head",
          "--no-recurse-submodules",
          `--depth=${Math.max(1, Math.floor(options.depth ?? 1))}`,
          "--end-of-options",
          remote.url.href,
          spec,
        ],
        true,
        signal,
      );
    if (options.maxFetchBytes === undefined) await fetch();
    else
      await fetchWithinCap(
        {
          gitDir: join(options.dir, ".git"),
          maxBytes: options.maxFetchBytes,
          // A fetch refused after it finished has set the ref: nothing refused may be read.
          onRefused: () => git(["update-ref", "-d", FETCHED_REF]),
        },
        fetch,
      );
    const commit = (await git(["rev-parse", "--verify", `${FETCHED_REF}^{commit}`]))
      .toString("utf8")
      .trim();
    if ("commit" in options.ref && commit !== options.ref.commit) {
      throw new AppError("BAD_GATEWAY", "The fetched commit is not the one requested.", {
        reason: "COMMIT_MISMATCH",
      });
    }
    return { commit };
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

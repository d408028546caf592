// The repository's recent history for a run's sandbox: a `.git` built from nothing beside the
// fetched checkout, holding the last commits up to the run's commit and nothing else. Its
// objects come over a local fetch with the URL on the command line, so it has no remote, no
// FETCH_HEAD, no packed-refs, no reflog and no hooks; the credential of the real fetch was only
// ever in that fetch's environment (C12). It is bounded twice: by the operator's commit count
// and by bytes — past the byte cap the history is cut (halved until it fits), and when not even
// the run's commit fits, the sandbox gets none (the caller falls back to a bare snapshot).
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { gitEnv } from "./git-env.ts";
import { runGit, streamGit } from "./git.ts";

export interface HistoryLimits {
  /** Commits the sandbox's history holds at most (the run's commit included); 0: none. */
  maxCommits: number;
  /** Bytes the sandbox's `.git` may take at most. */
  maxBytes: number;
}

export interface ExportHistoryOptions {
  /** The caller's work folder (the worker's own): the history and git's home go there. */
  workDir: string;
  limits: HistoryLimits;
  /** The branch name the sandbox's HEAD points at (the repository's default branch). */
  branch: string;
}

export interface ExportedHistory {
  /** Commits the history holds (fewer than asked when the byte cap cut it). */
  commits: number;
  bytes: number;
  /** A tar stream of `.git/…` entries, to extract over the exported tree. */
  archive(): Readable;
  cleanup(): Promise<void>;
}

const BRANCH = /^[A-Za-z0-9._/-]{1,200}$/;

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}

/**
 * Builds the history of `commit` (already fetched into `dir` with at least `maxCommits` of
 * depth) in a fresh folder; null when history is off or even one commit passes the byte cap.
 */
export async function exportHistory(
  dir: string,
  commit: string,
  options: ExportHistoryOptions,
): Promise<ExportedHistory | null> {
  const { maxCommits, maxBytes } = options.limits;
  const branch =
    BRANCH.test(options.branch) && !options.branch.includes("..") ? options.branch : "main";
  for (let depth = Math.floor(maxCommits); depth >= 1; depth = Math.floor(depth / 2)) {
    const built = await buildHistory(dir, commit, depth, branch, options.workDir);
    const bytes = await directoryBytes(join(built, ".git"));
    if (bytes <= maxBytes) return exported(built, await countCommits(built), bytes);
    await rm(built, { recursive: true, force: true });
  }
  return null;
}

async function buildHistory(
  source: string,
  commit: string,
  depth: number,
  branch: string,
  workDir: string,
): Promise<string> {
  const root = await mkdtemp(join(workDir, "history-"));
  const home = join(root, "home");
  const target = join(root, "repo");
  const env = gitEnv({
    home,
    remote: { url: new URL(`file://${source}`), protocol: "file", pin: undefined },
  });
  const git = (args: string[]) => runGit(args, { cwd: target, env, timeoutMs: 120_000 });
  try {
    await runGit(["init", "--quiet", "--template=", target], { env, timeoutMs: 30_000 });
    await git([
      "fetch",
      "--quiet",
      // HEAD already names the branch in a new repository; nothing is checked out.
      "--update-head-ok",
      "--no-tags",
      "--no-write-fetch-head",
      "--no-recurse-submodules",
      `--depth=${depth}`,
      "--end-of-options",
      `file://${source}`,
      `+${commit}:refs/heads/${branch}`,
    ]);
    await git(["symbolic-ref", "HEAD", `refs/heads/${branch}`]);
    // Reflogs would name the worker's folder; the sandbox needs none.
    await rm(join(target, ".git", "logs"), { recursive: true, force: true });
    return target;
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

async function countCommits(target: string): Promise<number> {
  const out = await runGit(["rev-list", "--count", "HEAD"], {
    cwd: target,
    env: gitEnv({ home: join(target, "..") }),
    timeoutMs: 30_000,
  });
  return Number(out.toString("utf8").trim());
}

function exported(target: string, commits: number, bytes: number): ExportedHistory {
  const root = join(target, "..");
  return {
    commits,
    bytes,
    // tar under the same runner as git (deadline, parent-death signal, errors on a failed
    // exit), so a cut-short history never passes for a whole one. Owner and modes are reset
    // again by the sandbox's copy-in.
    archive: () =>
      streamGit(["-c", "--numeric-owner", "-C", target, ".git"], {
        gitBinary: "tar",
        env: gitEnv({ home: root }),
        timeoutMs: 300_000,
      }),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

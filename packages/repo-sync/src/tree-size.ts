// How big a commit's tree is, read from git's own metadata (the tree objects and each blob's
// size in the object database), before anything of it is written out for the sandbox. A small
// push can expand to gigabytes (one blob repeated in many paths, or highly compressible
// content): the limits apply to what would be copied, not to what was fetched.
import { AppError } from "@secondshift/errors";
import { gitEnv } from "./git-env.ts";
import { gitLines } from "./git.ts";

export interface TreeLimits {
  /** Sum of the sizes of every file and symlink in the tree. */
  maxBytes: number;
  /** Entries in the tree (files, symlinks, submodule links; directories are not counted). */
  maxFiles: number;
}

export interface TreeSize {
  bytes: number;
  files: number;
}

const COMMIT_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** git reads no configuration from HOME here (gitEnv); a folder that does not exist keeps it so. */
const NO_HOME = "/nonexistent";
const MEASURE_TIMEOUT_MS = 300_000;

/**
 * Counts the tree's entries and sums their sizes from `git ls-tree -r` (type and size of each
 * entry), one line at a time: constant memory, linear in the number of entries, and nothing is
 * written anywhere.
 */
export async function measureTree(dir: string, commit: string): Promise<TreeSize> {
  if (!COMMIT_SHA.test(commit))
    throw new AppError("BAD_REQUEST", "A commit must be given as its full SHA.", {
      reason: "INVALID_COMMIT",
    });
  const size: TreeSize = { bytes: 0, files: 0 };
  // One short line per entry and no path, so no path can confuse the parsing.
  await gitLines(
    ["ls-tree", "-r", "--full-tree", "--format=%(objecttype) %(objectsize)", commit],
    { cwd: dir, env: gitEnv({ home: NO_HOME }), timeoutMs: MEASURE_TIMEOUT_MS },
    (line) => {
      size.files += 1;
      // A submodule's entry ("commit -") has no size; git archive writes it as a folder.
      if (line.startsWith("blob ")) size.bytes += Number(line.slice(5));
    },
  );
  return size;
}

const MB = 1024 * 1024;

function megabytes(bytes: number): string {
  return `${(bytes / MB).toFixed(1)} MB`;
}

/**
 * Refuses a tree over either limit with a message that names the limit, the figure and the
 * setting. Call it before exporting anything.
 */
export async function checkTreeSize(
  dir: string,
  commit: string,
  limits: TreeLimits,
): Promise<TreeSize> {
  const size = await measureTree(dir, commit);
  const at = `The repository at commit ${commit.slice(0, 12)}`;
  if (size.files > limits.maxFiles)
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `${at} has ${size.files.toLocaleString("en")} files; this server copies at most ${limits.maxFiles.toLocaleString("en")} into a sandbox (REPOSITORY_MAX_FILES). Nothing was copied. Remove files from the repository or ask the operator to raise the limit.`,
      { reason: "REPOSITORY_TOO_MANY_FILES" },
    );
  if (size.bytes > limits.maxBytes)
    throw new AppError(
      "PAYLOAD_TOO_LARGE",
      `${at} holds ${megabytes(size.bytes)} of files; this server copies at most ${megabytes(limits.maxBytes)} into a sandbox (REPOSITORY_MAX_MB). Nothing was copied. Make the repository smaller or ask the operator to raise the limit.`,
      { reason: "REPOSITORY_TOO_LARGE" },
    );
  return size;
}

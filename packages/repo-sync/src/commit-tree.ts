// A fetched commit's tree as the worker's own git has it: every entry's mode, object and path
// (`git ls-tree -r -z`), and blobs read by object id. The outputs feature compares the sandbox's
// files against this at finalize, never against the sandbox's `.git` (issue #24).
import { AppError } from "@secondshift/errors";
import { gitEnv } from "./git-env.ts";
import { runGit } from "./git.ts";

export interface CommitTreeEntry {
  /** git's mode: 100644, 100755, 120000 (symbolic link) or 160000 (submodule). */
  mode: string;
  sha: string;
  path: string;
}

const COMMIT_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const OBJECT_ID = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
/** git reads no configuration from HOME here (gitEnv); a folder that does not exist keeps it so. */
const NO_HOME = "/nonexistent";
const ENTRY = /^(\d{6}) (blob|commit) ([0-9a-f]+)\t([^]*)$/;

export async function listCommitTree(dir: string, commit: string): Promise<CommitTreeEntry[]> {
  if (!COMMIT_SHA.test(commit))
    throw new AppError("BAD_REQUEST", "A commit must be given as its full SHA.", {
      reason: "INVALID_COMMIT",
    });
  const out = await runGit(["ls-tree", "-r", "-z", "--full-tree", commit], {
    cwd: dir,
    env: gitEnv({ home: NO_HOME }),
    timeoutMs: 120_000,
    maxOutputBytes: 256 * 1024 * 1024,
  });
  const entries: CommitTreeEntry[] = [];
  for (const record of out.toString("utf8").split("\0")) {
    const match = ENTRY.exec(record);
    if (match) entries.push({ mode: match[1]!, sha: match[3]!, path: match[4]! });
  }
  return entries;
}

/** One blob's bytes (at most `maxBytes`; a larger one is an error). */
export async function readObject(dir: string, sha: string, maxBytes: number): Promise<Buffer> {
  if (!OBJECT_ID.test(sha))
    throw new AppError("BAD_REQUEST", "An object must be given as its full id.", {
      reason: "INVALID_OBJECT",
    });
  return runGit(["cat-file", "blob", sha], {
    cwd: dir,
    env: gitEnv({ home: NO_HOME }),
    timeoutMs: 30_000,
    maxOutputBytes: maxBytes,
  });
}

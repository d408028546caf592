// Copies of a fetched commit for the sandbox: the tracked files only, never .git (so no
// config, no remote URL, no FETCH_HEAD, nothing a credential could have touched; C12).
// `git archive` reads from the object database, so a file changed in the working copy after
// checkout is not what gets copied.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { AppError } from "@secondshift/errors";
import { gitEnv } from "./git-env.ts";
import { DEFAULT_GIT_PATH, runGit, streamGit } from "./git.ts";

const COMMIT_SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

async function verifiedCommit(
  dir: string,
  commit: string,
  env: Record<string, string>,
): Promise<void> {
  if (!COMMIT_SHA.test(commit))
    throw new AppError("BAD_REQUEST", "A commit must be given as its full SHA.", {
      reason: "INVALID_COMMIT",
    });
  await runGit(["rev-parse", "--verify", "--quiet", `${commit}^{commit}`], {
    cwd: dir,
    env,
    timeoutMs: 30_000,
  });
}

export interface ExportOptions {
  /** The caller's work folder (the worker's own): git's empty home goes there. */
  workDir: string;
}

/** A tar stream of the commit's tree (what dockerode's putArchive takes). */
export async function exportTree(
  dir: string,
  commit: string,
  options: ExportOptions,
): Promise<Readable> {
  return (await treeStream(dir, commit, options)).stream;
}

/** The stream, and a promise that settles once git's home is removed after it closed. */
async function treeStream(dir: string, commit: string, options: ExportOptions) {
  const home = await mkdtemp(join(options.workDir, "git-home-"));
  const env = gitEnv({ home });
  try {
    await verifiedCommit(dir, commit, env);
  } catch (error) {
    await rm(home, { recursive: true, force: true });
    throw error;
  }
  const stream = streamGit(["archive", "--format=tar", commit], {
    cwd: dir,
    env,
    timeoutMs: 300_000,
  });
  const removed = new Promise<void>((resolve) =>
    stream.once("close", () => void rm(home, { recursive: true, force: true }).finally(resolve)),
  );
  return { stream, removed };
}

/** Writes the commit's tree into `dest` (created if needed), without .git. */
export async function exportTreeToDirectory(
  dir: string,
  commit: string,
  dest: string,
  options: ExportOptions,
): Promise<void> {
  await mkdir(dest, { recursive: true });
  const { stream: tar, removed } = await treeStream(dir, commit, options);
  // --no-same-owner / -p off: files belong to whoever extracts, not to uids from the archive.
  // --ignore-zeros: tar would otherwise stop reading at the end-of-archive blocks and close its
  // stdin while git is still writing the record padding, which fails the pipe now and then
  // ("Premature close"); with it tar drains the stream to the end.
  const extract = spawn(
    "tar",
    ["-x", "--ignore-zeros", "--no-same-owner", "--no-same-permissions", "-C", dest],
    {
      env: { PATH: DEFAULT_GIT_PATH, LANG: "C" },
      stdio: ["pipe", "ignore", "pipe"],
    },
  );
  const exited = new Promise<void>((resolve, reject) => {
    extract.on("error", reject);
    extract.on("close", (code) =>
      code === 0
        ? resolve()
        : reject(new AppError("INTERNAL", "Extracting the repository copy failed.")),
    );
  });
  await pipeline(tar, extract.stdin);
  await exited;
  await removed;
}

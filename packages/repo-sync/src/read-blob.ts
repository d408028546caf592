// Reads a file of a commit from git's object database rather than from the working copy: a
// symlink committed as `.secondshift.yaml` (pointing at /etc/passwd, say) is a symlink entry
// in the tree, which we refuse, instead of a path the worker would follow on its own disk.
import { gitEnv } from "./git-env.ts";
import { runGit } from "./git.ts";

export type BlobResult = { found: true; text: string } | { found: false; problem: string };

/** Repository-relative, no `..`, no leading slash, no backslashes or control characters. */
export function isSafeRepoPath(path: string): boolean {
  if (path === "" || path.length > 500 || path.startsWith("/") || path.includes("\\")) return false;
  if ([...path].some((c) => c.charCodeAt(0) < 0x20)) return false;
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

export async function readBlob(
  dir: string,
  home: string,
  commit: string,
  path: string,
  maxBytes: number,
): Promise<BlobResult> {
  if (!isSafeRepoPath(path))
    return {
      found: false,
      problem: "the path must be a file inside the repository (no .. or leading /)",
    };
  const env = gitEnv({ home });
  const run = (args: string[]) =>
    runGit(args, { cwd: dir, env, timeoutMs: 30_000, maxOutputBytes: maxBytes + 1024 });
  const entry = (
    await run(["ls-tree", "-z", "--long", "--end-of-options", commit, "--", path])
  ).toString("utf8");
  // "<mode> <type> <object> <size>\t<path>\0"
  const match = /^(\d{6}) (\w+) ([0-9a-f]+)\s+(\d+|-)\t/.exec(entry);
  if (match === null) return { found: false, problem: "the file does not exist at this commit" };
  const [, mode, type, object, size] = match;
  if (type !== "blob" || (mode !== "100644" && mode !== "100755")) {
    return {
      found: false,
      problem: "must be a regular file (not a symlink, directory or submodule)",
    };
  }
  if (Number(size) > maxBytes)
    return { found: false, problem: `the file is larger than ${Math.floor(maxBytes / 1024)} KiB` };
  const bytes = await run(["cat-file", "blob", object ?? ""]);
  const text = bytes.toString("utf8");
  if (text.includes("\uFFFD")) {
    return { found: false, problem: "is not UTF-8 text" };
  }
  return { found: true, text };
}

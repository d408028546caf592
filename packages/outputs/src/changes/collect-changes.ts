// The run's changes for a proposed pull request, computed by the worker (issue #24 item 3): the
// sandbox's files, indexed by our own git in a fresh folder, against the run commit's tree from
// the worker's own git. Only text files and symbolic links can be proposed; a submodule, a
// binary or an oversized file is a problem that refuses the pull request, named for the owner.
import { isUtf8 } from "node:buffer";
import type { CommitTreeEntry } from "@secondshift/repo-sync";
import type { PullRequestFile } from "@secondshift/vocabulary";
import { changedPaths, type Change } from "./changed-paths.ts";
import { filePatch } from "./patch.ts";
import { blobId, readWorkspaceFiles, type ReadFile } from "./read-files.ts";
import { indexWorkspace, type ExecSandbox, type IndexedFile } from "./workspace-index.ts";

/** The run commit's tree, read through the worker's own git. */
export interface BaseTree {
  entries: CommitTreeEntry[];
  read(sha: string, maxBytes: number): Promise<Buffer>;
}

export interface ChangeLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  timeoutMs: number;
}

export type CollectedChanges = { files: PullRequestFile[] } | { problem: string };

function insideSubmodule(base: CommitTreeEntry[], changes: Change[]): string | null {
  const submodules = base.filter((e) => e.mode === "160000").map((e) => `${e.path}/`);
  const inside = changes.find((c) => submodules.some((s) => c.path.startsWith(s)));
  return inside ? inside.path : null;
}

export async function collectChanges(
  sandbox: ExecSandbox,
  base: BaseTree,
  limits: ChangeLimits,
): Promise<CollectedChanges> {
  const exec = { timeoutMs: limits.timeoutMs, maxOutputBytes: 64 * 1024 * 1024 };
  const index = await indexWorkspace(sandbox, base.entries, exec);
  if ("problem" in index) return index;
  if (index.embedded.length > 0)
    return {
      problem: `"${index.embedded[0]}" is a repository of its own (a submodule), which cannot be proposed`,
    };
  const changes = changedPaths(base.entries, index.files);
  if (changes.length > limits.maxFiles)
    return {
      problem: `the run changed ${changes.length} files, more than the ${limits.maxFiles} the owner allows`,
    };
  const submodule = insideSubmodule(base.entries, changes);
  if (submodule)
    return { problem: `"${submodule}" is inside a submodule, which cannot be changed` };
  const present = changes.filter((c) => c.after !== undefined).map((c) => c.path);
  const maxOutputBytes = Math.ceil((limits.maxTotalBytes * 4) / 3) + present.length * 1024 + 1024;
  const read = await readWorkspaceFiles(sandbox, present, { ...exec, maxOutputBytes });
  if ("problem" in read) return read;
  const files: PullRequestFile[] = [];
  for (const change of changes) {
    const file = await changedFile(change, read.get(change.path), base, limits);
    if ("problem" in file) return file;
    files.push(file);
  }
  return { files };
}

const algorithmOf = (sha: string) => (sha.length === 64 ? "sha256" : "sha1");

async function changedFile(
  change: Change,
  read: ReadFile | undefined,
  base: BaseTree,
  limits: ChangeLimits,
): Promise<PullRequestFile | { problem: string }> {
  const { path, after } = change;
  const before = await baseText(change.before, base, limits.maxFileBytes);
  if (after === undefined) {
    const { patch, additions, deletions } =
      before === null
        ? { patch: `(${path}: a binary or large file, deleted)`, additions: 0, deletions: 0 }
        : filePatch(path, before, null);
    return { path, status: "deleted", mode: null, content: null, additions, deletions, patch };
  }
  const content = checkedContent(path, after, read, limits.maxFileBytes);
  if (typeof content !== "string") return content;
  if (change.before && before === null)
    return { problem: `"${path}" was a binary or oversized file, which cannot be changed here` };
  const { patch, additions, deletions } = filePatch(path, before, content);
  const status = change.before ? "modified" : "added";
  const mode = after.mode as PullRequestFile["mode"];
  return { path, status, mode, content, additions, deletions, patch };
}

function checkedContent(
  path: string,
  after: IndexedFile,
  read: ReadFile | undefined,
  maxFileBytes: number,
): string | { problem: string } {
  if (!["100644", "100755", "120000"].includes(after.mode))
    return { problem: `"${path}" is neither a file nor a symbolic link` };
  if (!read || read.kind === "missing" || (read.kind === "link") !== (after.mode === "120000"))
    return { problem: `"${path}" changed while the run's changes were being read` };
  if (blobId(read.data, algorithmOf(after.sha)) !== after.sha)
    return { problem: `"${path}" changed while the run's changes were being read` };
  if (read.data.length > maxFileBytes)
    return { problem: `"${path}" is larger than ${maxFileBytes} bytes` };
  if (read.data.includes(0) || !isUtf8(read.data))
    return { problem: `"${path}" is a binary file; only text files can be proposed` };
  return read.data.toString("utf8");
}

/** The base content as text, or null when it is binary or too large to show. */
async function baseText(
  entry: CommitTreeEntry | undefined,
  base: BaseTree,
  maxBytes: number,
): Promise<string | null> {
  if (!entry) return null;
  const data = await base.read(entry.sha, maxBytes).catch(() => null);
  if (data === null || data.includes(0) || !isUtf8(data)) return null;
  return data.toString("utf8");
}

// The run's diff artifact (the "Changes" on the run page and in the report), taken the same
// way as a pull request's changes: our own git index of the sandbox's files against the run
// commit's tree from the worker's git, never the sandbox's `.git`, which the agent can rewrite
// to hide a change. Git's diff format: per file a `diff --git` header, its mode lines, then the
// hunks; a binary is named, not shown. Past `maxBytes` the rest is cut and the diff says so.
import { isUtf8 } from "node:buffer";
import type { BaseTree } from "./collect-changes.ts";
import { changedPaths, type Change } from "./changed-paths.ts";
import { filePatch } from "./patch.ts";
import { readWorkspaceFiles, type ReadFile } from "./read-files.ts";
import { indexWorkspace, type ExecSandbox } from "./workspace-index.ts";

export interface DiffLimits {
  maxBytes: number;
  timeoutMs: number;
}

const text = (data: Buffer | undefined): string | null =>
  data !== undefined && !data.includes(0) && isUtf8(data) ? data.toString("utf8") : null;

function header(change: Change): string[] {
  const { path, before, after } = change;
  const lines = [`diff --git a/${path} b/${path}`];
  if (!before && after) lines.push(`new file mode ${after.mode}`);
  else if (before && !after) lines.push(`deleted file mode ${before.mode}`);
  else if (before && after && before.mode !== after.mode)
    lines.push(`old mode ${before.mode}`, `new mode ${after.mode}`);
  return lines;
}

function fileDiff(change: Change, oldData: Buffer | undefined, read: ReadFile | undefined): string {
  const { path, before, after } = change;
  const newData = after && read && read.kind !== "missing" ? read.data : undefined;
  const oldText = before ? text(oldData) : "";
  const newText = after ? text(newData) : "";
  const lines = header(change);
  if (oldText === null || newText === null)
    lines.push(
      `Binary files ${before ? `a/${path}` : "/dev/null"} and ${after ? `b/${path}` : "/dev/null"} differ`,
    );
  else if (oldText !== newText) {
    const hunks = filePatch(path, before ? oldText : null, after ? newText : null).patch;
    // jsdiff's own header (its "===" line and file names) gives way to git's.
    const body = hunks.split("\n");
    const first = body.findIndex((l) => l.startsWith("@@") || l.startsWith("("));
    lines.push(
      `--- ${before ? `a/${path}` : "/dev/null"}`,
      `+++ ${after ? `b/${path}` : "/dev/null"}`,
    );
    lines.push(...body.slice(first === -1 ? body.length : first).filter((l) => l !== ""));
  }
  return `${lines.join("\n")}\n`;
}

export async function workspaceDiff(
  sandbox: ExecSandbox,
  base: BaseTree,
  limits: DiffLimits,
): Promise<string | null> {
  const exec = { timeoutMs: limits.timeoutMs, maxOutputBytes: 64 * 1024 * 1024 };
  const index = await indexWorkspace(sandbox, base.entries, exec);
  if ("problem" in index) return null;
  const changes = changedPaths(base.entries, index.files);
  const present = changes.filter((c) => c.after).map((c) => c.path);
  const read = await readWorkspaceFiles(sandbox, present, {
    ...exec,
    maxOutputBytes: Math.ceil((limits.maxBytes * 4) / 3) + present.length * 1024 + 1024,
  });
  const contents = "problem" in read ? new Map<string, ReadFile>() : read;
  let out = index.embedded
    .map((p) => `Submodule ${p}: a repository of its own, not shown\n`)
    .join("");
  for (const change of changes) {
    if (out.length > limits.maxBytes) break;
    const old = change.before
      ? await base.read(change.before.sha, limits.maxBytes).catch(() => undefined)
      : undefined;
    out += fileDiff(change, old, contents.get(change.path));
  }
  if ("problem" in read) out += `[file contents not shown: ${read.problem}]\n`;
  return out.length > limits.maxBytes
    ? `${out.slice(0, limits.maxBytes)}\n[diff truncated at ${limits.maxBytes} bytes]`
    : out;
}

// What the run's files are at its end, indexed by our own git in a fresh git folder made for
// this one command, never the sandbox's `.git` (the agent could rewrite it to hide a change).
// The base (the run commit's tree, from the worker's own git) goes in first through stdin, so
// a tracked file that a .gitignore now matches still counts, and `update-index --info-only`
// hashes every tracked and new non-ignored file without writing objects. Embedded
// repositories (a folder with its own .git) are listed apart: they cannot be proposed.
import type { CommitTreeEntry } from "@secondshift/repo-sync";

/** The part of a run sandbox this needs (packages/sandbox's RunSandbox has it). */
export interface ExecSandbox {
  exec(
    command: string,
    options: { stdin?: string | Buffer; timeoutMs?: number; maxOutputBytes?: number },
  ): Promise<{ exitCode: number | null; stdout: string; stderr: string; truncated: boolean }>;
}

export interface IndexedFile {
  mode: string;
  sha: string;
}

export type WorkspaceIndex =
  { files: Map<string, IndexedFile>; embedded: string[] } | { problem: string };

const EMBEDDED_MARK = "--secondshift-embedded--";

const INDEX_SCRIPT = `set -u
g=$(mktemp -d /tmp/secondshift-changes.XXXXXX) || exit 90
trap 'rm -rf -- "$g"' EXIT
export GIT_DIR="$g/git" GIT_INDEX_FILE="$g/index" GIT_WORK_TREE="$PWD" HOME="$g" \\
  GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null GIT_OPTIONAL_LOCKS=0
git init -q || exit 91
for kv in core.excludesFile=/dev/null core.fileMode=true core.symlinks=true \\
  core.autocrlf=false core.hooksPath=/dev/null core.quotePath=false; do
  git config "\${kv%%=*}" "\${kv#*=}" || exit 91
done
git update-index -z --index-info || exit 92
git ls-files -z > "$g/tracked" || exit 93
git ls-files -z --others --exclude-standard > "$g/new" || exit 93
grep -z '/$' "$g/new" > "$g/embedded" || true
grep -zv '/$' "$g/new" > "$g/added" || true
cat "$g/tracked" "$g/added" | git update-index -z --add --remove --info-only --stdin || exit 94
git ls-files -s -z || exit 95
printf '%s\\0' '${EMBEDDED_MARK}' || exit 96
cat "$g/embedded" || exit 96`;

const STAGED = /^(\d{6}) ([0-9a-f]{40}|[0-9a-f]{64}) 0\t([^]+)$/;

/** The base entries the index starts from: files and links only (a submodule is left as is). */
function baseIndexInfo(base: CommitTreeEntry[]): Buffer {
  const lines = base
    .filter((e) => e.mode !== "160000")
    .map((e) => `${e.mode} ${e.sha}\t${e.path}\0`);
  return Buffer.from(lines.join(""), "utf8");
}

export async function indexWorkspace(
  sandbox: ExecSandbox,
  base: CommitTreeEntry[],
  options: { timeoutMs: number; maxOutputBytes: number },
): Promise<WorkspaceIndex> {
  const result = await sandbox.exec(INDEX_SCRIPT, {
    stdin: baseIndexInfo(base),
    timeoutMs: options.timeoutMs,
    maxOutputBytes: options.maxOutputBytes,
  });
  if (result.truncated)
    return { problem: "the workspace holds too many files to compare with the run's commit" };
  if (result.exitCode !== 0)
    return {
      problem: `the run's files could not be compared with its commit (step ${result.exitCode ?? "stopped"})`,
    };
  const parts = result.stdout.split(`${EMBEDDED_MARK}\0`);
  if (parts.length !== 2)
    return { problem: "the run's files could not be compared with its commit" };
  const [staged = "", embedded = ""] = parts;
  const files = new Map<string, IndexedFile>();
  for (const record of staged.split("\0")) {
    const match = STAGED.exec(record);
    if (match) files.set(match[3]!, { mode: match[1]!, sha: match[2]! });
  }
  const folders = embedded
    .split("\0")
    .filter((p) => p !== "")
    .map((p) => p.replace(/\/$/, ""));
  return { files, embedded: folders };
}

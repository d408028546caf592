// The content of the changed paths, read in one command: per path (NUL-separated on stdin) a
// type letter, the path and the content in base64, each ended by NUL. `L`: a symbolic link (the
// content is its target, never followed), `F`: a regular file, `M`: missing or neither.
// The worker then checks each content against the object id the index gave (blob hash), so
// what it stores is exactly what was compared.
import { createHash } from "node:crypto";
import type { ExecSandbox } from "./workspace-index.ts";

export type ReadFile = { kind: "file" | "link"; data: Buffer } | { kind: "missing" };

const READ_SCRIPT = `set -u
while IFS= read -r -d '' p; do
  if [ -L "$p" ]; then printf 'L\\0%s\\0' "$p"; readlink -n -- "$p" | base64 -w0
  elif [ -f "$p" ]; then printf 'F\\0%s\\0' "$p"; base64 -w0 -- "$p"
  else printf 'M\\0%s\\0' "$p"; fi
  printf '\\0'
done`;

export async function readWorkspaceFiles(
  sandbox: ExecSandbox,
  paths: string[],
  options: { timeoutMs: number; maxOutputBytes: number },
): Promise<Map<string, ReadFile> | { problem: string }> {
  const result = await sandbox.exec(READ_SCRIPT, {
    stdin: Buffer.from(paths.map((p) => `${p}\0`).join(""), "utf8"),
    timeoutMs: options.timeoutMs,
    maxOutputBytes: options.maxOutputBytes,
  });
  if (result.truncated) return { problem: "the changed files are larger than allowed together" };
  if (result.exitCode !== 0) return { problem: "the changed files could not be read" };
  const parts = result.stdout.split("\0");
  const files = new Map<string, ReadFile>();
  for (let i = 0; i + 2 < parts.length; i += 3) {
    const [type, path, data] = [parts[i], parts[i + 1]!, parts[i + 2]!];
    if (type === "M") files.set(path, { kind: "missing" });
    else
      files.set(path, { kind: type === "L" ? "link" : "file", data: Buffer.from(data, "base64") });
  }
  return files;
}

/** git's object id of a blob with this content (SHA-1, or SHA-256 for such repositories). */
export function blobId(data: Buffer, algorithm: "sha1" | "sha256"): string {
  return createHash(algorithm).update(`blob ${data.length}\0`).update(data).digest("hex");
}

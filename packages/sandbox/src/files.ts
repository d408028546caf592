// Read, write and list inside the workspace. Docker's archive API cannot see tmpfs mounts (and
// under gVisor the tmpfs lives inside the sandbox kernel), so every operation is a small fixed
// script run by exec as the sandbox user; paths are checked lexically first, then resolved with
// realpath inside the container so that symlinks pointing outside are refused.
// A process in the sandbox could swap a symlink between check and use; that only lets it read
// what the sandbox user can already read, since the worker's operations run as that same user.
import { AppError } from "@secondshift/errors";
import { outsideWorkspace, RESOLVE_SH, toWorkspacePath } from "./paths.ts";
import type { DirEntry } from "./types.ts";
import type { RawExecResult } from "./exec.ts";

export type HelperRunner = (
  script: string,
  args: string[],
  stdin?: Buffer,
) => Promise<RawExecResult>;

const READ_SH = `${RESOLVE_SH}
p=$(resolve "$1") || exit 3
[ -e "$p" ] || exit 4
[ -f "$p" ] || exit 5
head -c "$2" -- "$p"`;

const WRITE_SH = `${RESOLVE_SH}
p=$(resolve "$1") || exit 3
parent=$(dirname -- "$p")
mkdir -p -- "$parent" 2>/dev/null
parent=$(realpath -e -- "$parent" 2>/dev/null) || exit 4
inside "$parent" || exit 3
[ -d "$p" ] && exit 5
cat > "$p"`;

const LIST_SH = `${RESOLVE_SH}
p=$(resolve "$1") || exit 3
[ -e "$p" ] || exit 4
[ -d "$p" ] || exit 5
find "$p/" -mindepth 1 -maxdepth 1 -printf '%y\\t%s\\t%f\\0'`;

function check(result: RawExecResult, path: string, what: string): void {
  if (result.aborted) {
    throw new AppError("CONFLICT", "The run was stopped before this file operation finished.", {
      reason: "SANDBOX_ABORTED",
    });
  }
  if (result.containerGone) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "The sandbox is gone (it may have run out of memory); start a new run.",
      {
        reason: "SANDBOX_GONE",
      },
    );
  }
  switch (result.exitCode) {
    case 0:
      return;
    case 3:
      throw outsideWorkspace(path);
    case 4:
      throw new AppError("NOT_FOUND", `"${path}" does not exist in the workspace.`, {
        reason: "SANDBOX_PATH_NOT_FOUND",
      });
    case 5:
      throw new AppError("BAD_REQUEST", `"${path}" is not a ${what}.`, {
        reason: "SANDBOX_PATH_WRONG_TYPE",
      });
    default:
      throw new AppError(
        "INTERNAL",
        `Could not access "${path}" in the sandbox: ${result.stderr.toString().trim().slice(0, 500)}`,
        {
          reason: "SANDBOX_FILE_OPERATION_FAILED",
        },
      );
  }
}

export async function readFile(
  run: HelperRunner,
  path: string,
  maxBytes = 10 * 1024 * 1024,
): Promise<Buffer> {
  const abs = toWorkspacePath(path);
  const result = await run(READ_SH, [abs, String(maxBytes)]);
  check(result, path, "file");
  return result.stdout;
}

export async function writeFile(
  run: HelperRunner,
  path: string,
  content: string | Buffer,
): Promise<void> {
  const abs = toWorkspacePath(path);
  const result = await run(
    WRITE_SH,
    [abs],
    Buffer.isBuffer(content) ? content : Buffer.from(content),
  );
  check(result, path, "file");
}

const types: Record<string, DirEntry["type"]> = { f: "file", d: "directory", l: "symlink" };

export async function listDir(run: HelperRunner, path = "."): Promise<DirEntry[]> {
  const abs = toWorkspacePath(path);
  const result = await run(LIST_SH, [abs]);
  check(result, path, "directory");
  return result.stdout
    .toString("utf8")
    .split("\0")
    .filter((line) => line.length > 0)
    .map((line) => {
      const [type = "", size = "0", ...name] = line.split("\t");
      return { name: name.join("\t"), type: types[type] ?? "other", size: Number(size) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

// Counts what a run left in /workspace before its changes are copied out, and stops counting at
// the operator's cap: a run that made a million small files must fail with the limit's name, not
// keep the worker (and git, which would hash and index every one) reading entries for minutes.
import { AppError } from "@secondshift/errors";
import { WORKSPACE_DIR, type RunSandbox } from "./types.ts";

/** The operator's setting for the cap, named in the error. */
export const WORKSPACE_FILES_SETTING = "SANDBOX_WORKSPACE_MAX_FILES";
/** 100,000 files were listed in a few seconds here; far past that the cap has long been hit. */
const COUNT_TIMEOUT_MS = 60_000;

export interface WorkspaceCount {
  /** Files, symlinks and other non-directory entries, outside /workspace/.git. */
  files: number;
  /** Sum of their sizes. */
  bytes: number;
}

/**
 * Every non-directory entry of /workspace except the snapshot's own .git, with its size. awk
 * stops reading at maxFiles + 1; find then dies on its next write (SIGPIPE), so no more than
 * that is ever listed. Ignored files (node_modules, build output) count too: they take the
 * sandbox's memory like any other, and `git add -A` still walks every folder not ignored.
 */
export function countWorkspaceCommand(maxFiles: number): string {
  if (!Number.isSafeInteger(maxFiles) || maxFiles <= 0)
    throw new Error(`maxFiles must be a positive integer (got ${maxFiles})`);
  return [
    `find ${WORKSPACE_DIR} -mindepth 1 -path ${WORKSPACE_DIR}/.git -prune -o ! -type d -printf '%s\\n' 2>/dev/null`,
    `awk -v max=${maxFiles} '{ n++; b += $1; if (n > max) exit } END { printf "%d %d\\n", n, b }'`,
  ].join(" | ");
}

export function workspaceTooManyFiles(maxFiles: number): AppError {
  const max = maxFiles.toLocaleString("en");
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `The run left more than ${max} files in /workspace (${WORKSPACE_FILES_SETTING} = ${max}), so its changes were not collected; counting stopped at the limit. Everything in /workspace counts except its .git folder, files the repository ignores (such as node_modules) included. Make the job delete what it does not need to keep (dependencies, caches, build output) before it ends, or ask the operator to raise ${WORKSPACE_FILES_SETTING}.`,
    { reason: "WORKSPACE_TOO_MANY_FILES" },
  );
}

/** Counts /workspace up to `maxFiles`; throws WORKSPACE_TOO_MANY_FILES past it. */
export async function checkWorkspaceFiles(
  sandbox: RunSandbox,
  maxFiles: number,
): Promise<WorkspaceCount> {
  const result = await sandbox.exec(countWorkspaceCommand(maxFiles), {
    timeoutMs: COUNT_TIMEOUT_MS,
    maxOutputBytes: 4096,
  });
  const match = /^(\d+) (\d+)\n$/.exec(result.stdout);
  if (result.timedOut || result.exitCode !== 0 || !match) {
    const why = result.timedOut
      ? `it took longer than ${COUNT_TIMEOUT_MS / 1000} s`
      : result.stderr.trim().slice(0, 300) || `exit code ${String(result.exitCode)}`;
    throw new AppError("INTERNAL", `Counting the files in /workspace failed: ${why}.`, {
      reason: "WORKSPACE_COUNT_FAILED",
    });
  }
  const count = { files: Number(match[1]), bytes: Number(match[2]) };
  if (count.files > maxFiles) throw workspaceTooManyFiles(maxFiles);
  return count;
}

// The errors of a sandbox that is no longer there. They name the operator's setting, so the
// owner reading the run's error knows which limit was hit and whom to ask.
import { AppError } from "@secondshift/errors";

const MIB = 1024 * 1024;

/** Reasons meaning the sandbox is gone: no later command or file operation can work. */
export const SANDBOX_LOST_REASONS: ReadonlySet<string> = new Set([
  "SANDBOX_OUT_OF_MEMORY",
  "SANDBOX_GONE",
]);

/**
 * The sandbox was killed for memory. Under gVisor the tmpfs contents and every file's inode live
 * in the sandbox's memory, so a flood of small (even empty) files ends here, not at the tmpfs
 * size: empty files take no tmpfs pages but ~2 KiB of memory each.
 */
export function sandboxOutOfMemory(memoryBytes: number): AppError {
  const mib = Math.round(memoryBytes / MIB);
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `The run used all of the sandbox's memory (SANDBOX_MEMORY_MB = ${mib} MiB): it created more files or data than fit, or a process used too much memory. Files in /workspace and /tmp are held in that memory (each small file takes about 2–6 KiB). Make the job create fewer files or use less memory, or ask the operator to raise SANDBOX_MEMORY_MB.`,
    { reason: "SANDBOX_OUT_OF_MEMORY" },
  );
}

export function sandboxGone(cause?: unknown): AppError {
  return new AppError(
    "SERVICE_UNAVAILABLE",
    "The sandbox is gone (it passed its deadline or was destroyed); start a new run.",
    { reason: "SANDBOX_GONE", ...(cause === undefined ? {} : { cause }) },
  );
}

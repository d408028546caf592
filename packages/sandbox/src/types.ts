// Public shapes of the sandbox package. Configuration always arrives as arguments (the worker's
// env.ts reads the operator's settings); this package never reads the environment.
import type { Readable } from "node:stream";
import type Docker from "dockerode";
import type { Logger } from "@secondshift/logging";
import type { SandboxMetrics } from "./metrics.ts";

export type SandboxRuntime = "runsc" | "runc";

export interface SandboxLimits {
  /** Memory of the whole sandbox (gVisor's kernel + processes + tmpfs contents); swap is off. */
  memoryBytes: number;
  /** CPU quota in units of 1e-9 CPUs (1_000_000_000 = one core). */
  nanoCpus: number;
  /** Processes the sandbox user may run at once (enforced inside gVisor, see container-spec.ts). */
  pidsLimit: number;
  /** Open file descriptors per process. */
  nofile: number;
  /** Size of the writable /workspace tmpfs. */
  workspaceBytes: number;
  /** Size of the writable /tmp tmpfs. */
  tmpBytes: number;
}

export interface SandboxManagerConfig {
  docker: Docker;
  /** Image tag (operator setting), e.g. "secondshift-sandbox:1". */
  image: string;
  runtime: SandboxRuntime;
  /** In production only runsc is accepted. */
  production: boolean;
  /** Outside production, the operator may opt into runc (no gVisor) for development. */
  allowRunc: boolean;
  limits: SandboxLimits;
  logger: Logger;
  /**
   * The installation the sandboxes belong to (a label): installations sharing one engine each
   * reap only their own. Letters, digits, '.', '_', '-'.
   */
  installationId: string;
  /** Earlier ids of the same installation, still reaped as its own (e.g. during a key rotation). */
  previousInstallationIds?: readonly string[];
  /** Start latency is observed here when given (createSandboxMetrics). */
  metrics?: SandboxMetrics;
}

export interface CreateSandboxOptions {
  runId: string;
  workspaceId: string;
  /** When the run must be over; the reaper removes the container after it. */
  deadline: Date;
}

export interface ExecOptions {
  /** Working directory relative to /workspace (default: the workspace root). */
  cwd?: string;
  /** Milliseconds before the command's whole process tree is killed (default 60 s). */
  timeoutMs?: number;
  /** Bytes kept per stream (stdout, stderr); the rest is counted and dropped (default 1 MiB). */
  maxOutputBytes?: number;
  stdin?: string | Buffer;
  /** Called with every chunk as it arrives (only chunks within the cap). */
  onOutput?: (stream: "stdout" | "stderr", chunk: Buffer) => void;
  /**
   * The run's abort signal: when it fires, the command's whole process tree is killed (as on a
   * timeout) and exec returns with `aborted: true`. Already aborted: the command never starts.
   */
  signal?: AbortSignal;
}

export interface ExecResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timedOut: boolean;
  /** The caller's signal fired; the command was killed (or never started). */
  aborted: boolean;
  // No oomKilled: a sandbox killed for memory is gone as a whole (gVisor's kernel lives in the
  // same cgroup), so exec throws SANDBOX_OUT_OF_MEMORY, naming the limit, instead of returning.
}

/** Options of the small file operations (each is one short command inside the sandbox). */
export interface FileOptions {
  signal?: AbortSignal;
}

export interface ListFilesOptions extends FileOptions {
  recursive?: boolean;
  /** Glob that file names must match (find -name). */
  pattern?: string;
}

/**
 * The one sandbox interface: what the run executor and the agent's tools use. Sandbox (this
 * package) implements it; test doubles implement the same shape. Paths are relative to
 * /workspace and may not leave it. Every command takes the run's abort signal.
 */
export interface RunSandbox {
  /**
   * Runs a shell command (bash -c) in the workspace. Throws SANDBOX_OUT_OF_MEMORY when the
   * sandbox is killed for memory, and that or SANDBOX_GONE on every call after.
   */
  exec(command: string, options?: ExecOptions): Promise<ExecResult>;
  readFile(path: string, options?: FileOptions & { maxBytes?: number }): Promise<Buffer>;
  writeFile(path: string, content: string | Buffer, options?: FileOptions): Promise<void>;
  /** Paths (relative to the workspace) under `path`, sorted, .git excluded, at most 5000. */
  listFiles(path: string, options?: ListFilesOptions): Promise<string[]>;
  /** Matching lines as text (ripgrep); optional so a double may leave searching to exec. */
  search?(pattern: string, path: string, options?: FileOptions): Promise<string>;
  /**
   * Streams the repository (a tar archive, e.g. `git archive`) into /workspace; on failure
   * /workspace is left empty and the error names the part that failed.
   */
  copyInArchive(archive: Readable): Promise<void>;
  /** Removes the sandbox; safe to call any number of times. */
  destroy(): Promise<void>;
}

export interface DirEntry {
  name: string;
  type: "file" | "directory" | "symlink" | "other";
  size: number;
}

export const LABELS = {
  managed: "secondshift.managed",
  installation: "secondshift.installation",
  runId: "secondshift.run-id",
  workspaceId: "secondshift.workspace-id",
  deadline: "secondshift.deadline",
} as const;

export const WORKSPACE_DIR = "/workspace";
/** The image's unprivileged user (docker/sandbox/setup.sh). */
export const SANDBOX_USER = "10001:10001";

// One run's sandbox: a handle over a locked-down container (see container-spec.ts).
import type { Readable } from "node:stream";
import type Docker from "dockerode";
import { AppError } from "@secondshift/errors";
import type { Logger } from "@secondshift/logging";
import { copyInFailure, COPY_IN_TIMEOUT_MS, sanitizeArchive } from "./copy-in.ts";
import { rawExec, type RawExecResult } from "./exec.ts";
import { sandboxGone, sandboxOutOfMemory } from "./failures.ts";
import { listDir, readFile, writeFile, type HelperRunner } from "./files.ts";
import { LISTING_TIMEOUT_MS, listFilesCommand, searchCommand } from "./listing.ts";
import { packDirectory } from "./pack-dir.ts";
import { toWorkspacePath } from "./paths.ts";
import {
  WORKSPACE_DIR,
  type DirEntry,
  type ExecOptions,
  type ExecResult,
  type FileOptions,
  type ListFilesOptions,
  type RunSandbox,
} from "./types.ts";

const HELPER_TIMEOUT_MS = 60_000;
const HELPER_MAX_OUTPUT = 64 * 1024 * 1024;

export interface SandboxInit {
  docker: Docker;
  id: string;
  runId: string;
  /** RLIMIT_NPROC applied to user commands (0 under runc, where the cgroup limit applies). */
  nproc: number;
  /** The container's memory limit, named in the error when the sandbox is killed for memory. */
  memoryBytes: number;
  logger: Logger;
}

export class Sandbox implements RunSandbox {
  readonly id: string;
  readonly runId: string;
  private readonly docker: Docker;
  private readonly nproc: number;
  private readonly memoryBytes: number;
  private readonly logger: Logger;
  private readonly gone: Promise<void>;
  private destroyed = false;
  /** Set once the container is found stopped: every later call throws it. */
  private lost: AppError | undefined;
  /** The end of the last queued command: commands run one at a time (see `serial`). */
  private lane: Promise<unknown> = Promise.resolve();

  constructor(init: SandboxInit) {
    this.docker = init.docker;
    this.id = init.id;
    this.runId = init.runId;
    this.nproc = init.nproc;
    this.memoryBytes = init.memoryBytes;
    this.logger = init.logger;
    // One long-poll per sandbox: when the container stops (OOM kill, destroy, reaper), every
    // running exec is told at once instead of waiting on a stream that may never end.
    this.gone = this.docker
      .getContainer(this.id)
      .wait({ condition: "not-running" })
      .then(
        () => undefined,
        () => undefined,
      );
  }

  /**
   * Runs a shell command (bash -c) in the workspace; see ExecOptions for the caps. When the
   * sandbox is killed for memory during the command, it throws SANDBOX_OUT_OF_MEMORY (naming
   * the limit) instead of returning: the sandbox is gone and so is whatever the command wrote.
   */
  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    this.assertAlive();
    const cwd = toWorkspacePath(options.cwd ?? ".");
    const raw = await this.serial(() =>
      rawExec(this.docker, this.id, command, {
        ...options,
        cwd,
        nproc: this.nproc,
        containerGone: this.gone,
      }),
    ).catch((error: unknown) => this.translateDockerError(error));
    let containerGone = raw.containerGone;
    // A command killed with the whole sandbox (out of memory) can end its stream a moment
    // before the engine reports the container stopped: after a kill-like exit, give the
    // container watch time to see it, so the death is reported, not missed. No exit code at all
    // (runsc lost the process: "urpc … WaitPID failed: EOF") is the usual sign and can take the
    // engine several seconds on a loaded machine; a plain signal exit (a command's own crash)
    // waits only briefly, since it is mostly just that.
    const stoppedByUs = raw.timedOut || raw.aborted;
    if (!containerGone && !stoppedByUs && (raw.exitCode === null || raw.exitCode >= 128)) {
      const graceMs = raw.exitCode === null ? 10_000 : 2_000;
      containerGone = await Promise.race([
        this.gone.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref()),
      ]);
    }
    if (containerGone) {
      const lost = await this.lostError();
      if (lost.reason === "SANDBOX_OUT_OF_MEMORY") throw lost;
    }
    if (raw.timedOut || raw.aborted)
      this.logger.info(
        {
          event: raw.timedOut ? "sandbox.exec_timeout" : "sandbox.exec_aborted",
          runId: this.runId,
        },
        raw.timedOut
          ? "command timed out; process tree killed"
          : "run stopped; process tree killed",
      );
    return {
      exitCode: raw.exitCode,
      stdout: raw.stdout.toString("utf8"),
      stderr: raw.stderr.toString("utf8"),
      truncated: raw.truncated,
      timedOut: raw.timedOut,
      aborted: raw.aborted,
    };
  }

  readFile(path: string, options: FileOptions & { maxBytes?: number } = {}): Promise<Buffer> {
    return readFile(this.helperWith(options.signal), path, options.maxBytes);
  }

  writeFile(path: string, content: string | Buffer, options: FileOptions = {}): Promise<void> {
    return writeFile(this.helperWith(options.signal), path, content);
  }

  listDir(path?: string, options: FileOptions = {}): Promise<DirEntry[]> {
    return listDir(this.helperWith(options.signal), path);
  }

  async listFiles(path: string, options: ListFilesOptions = {}): Promise<string[]> {
    const result = await this.exec(listFilesCommand(path, options), this.listingOptions(options));
    if (result.exitCode !== 0) {
      throw new AppError("BAD_REQUEST", result.stderr.trim() || `Cannot list ${path}.`, {
        reason: "SANDBOX_LIST_FAILED",
      });
    }
    return result.stdout.split("\n").filter(Boolean);
  }

  async search(pattern: string, path: string, options: FileOptions = {}): Promise<string> {
    const result = await this.exec(searchCommand(pattern, path), this.listingOptions(options));
    return (
      result.stdout ||
      (result.stderr.trim() ? `search failed: ${result.stderr.trim()}` : "no matches")
    );
  }

  /** Copies a checkout from the worker's disk into /workspace (see copyInArchive). */
  copyInDirectory(dir: string): Promise<void> {
    return this.copyInArchive(packDirectory(dir));
  }

  /**
   * Streams a tar archive into /workspace after checking every entry (copy-in.ts): nothing of
   * it is written on the worker. If the archive cannot be read (e.g. git fails midway), an
   * entry is rejected or the extraction fails, the extraction is stopped, /workspace is emptied
   * and the error says which part failed.
   */
  async copyInArchive(archive: Readable): Promise<void> {
    this.assertAlive();
    const stop = new AbortController();
    let readFailure: unknown;
    archive.once("error", (error) => {
      readFailure ??= error;
      stop.abort();
    });
    const safe = sanitizeArchive(archive, () => stop.abort());
    let result: RawExecResult;
    try {
      result = await this.runHelper(
        // --ignore-zeros: read to the end of the stream instead of stopping at the end-of-archive
        // blocks, so the writer never finds its pipe closed under it.
        `tar -x -f - --ignore-zeros -C ${WORKSPACE_DIR} --no-same-owner --no-same-permissions`,
        [],
        safe.stream,
        stop.signal,
        COPY_IN_TIMEOUT_MS,
      );
    } catch (error) {
      archive.destroy();
      safe.stream.destroy();
      throw error;
    }
    const lost = result.containerGone ? await this.lostError() : undefined;
    const failure = copyInFailure(readFailure, safe.error(), result, lost);
    if (!failure) return;
    archive.destroy();
    safe.stream.destroy();
    await this.emptyWorkspace(failure);
    throw failure;
  }

  /** After a failed copy: nothing of it stays in /workspace. */
  private async emptyWorkspace(failure: AppError): Promise<void> {
    const emptied = await this.runHelper(`find ${WORKSPACE_DIR} -mindepth 1 -delete`, []).catch(
      () => undefined,
    );
    if (emptied?.exitCode !== 0)
      this.logger.warn(
        { event: "sandbox.copy_in_cleanup_failed", runId: this.runId, reason: failure.reason },
        "could not empty /workspace after a failed copy; the sandbox is destroyed with the run",
      );
  }

  /** Removes the container; safe to call any number of times. */
  async destroy(): Promise<void> {
    this.destroyed = true;
    try {
      await this.docker.getContainer(this.id).remove({ force: true });
    } catch (error) {
      const status = (error as { statusCode?: number }).statusCode;
      // 404: already gone; 409: removal already in progress.
      if (status !== 404 && status !== 409) throw error;
    }
  }

  private assertAlive(): void {
    if (this.destroyed) {
      throw new AppError("CONFLICT", "This sandbox was destroyed; create a new one.", {
        reason: "SANDBOX_DESTROYED",
      });
    }
    if (this.lost) throw this.lost;
  }

  /**
   * Why the container stopped, asked of the engine once (under runsc too, an out-of-memory kill
   * shows as State.OOMKilled with exit code 137), logged, and kept for every later call.
   */
  private async lostError(cause?: unknown): Promise<AppError> {
    if (this.lost) return this.lost;
    let state: Docker.ContainerInspectInfo["State"] | undefined;
    try {
      state = (await this.docker.getContainer(this.id).inspect()).State;
    } catch {
      state = undefined;
    }
    // Still running: the engine's 404/409 was about this exec, not the container.
    if (state?.Running) return sandboxGone(cause);
    const oomKilled = state?.OOMKilled ?? false;
    this.logger.warn(
      { event: "sandbox.died", runId: this.runId, oomKilled, exitCode: state?.ExitCode },
      oomKilled ? "the sandbox was killed for memory" : "the sandbox stopped",
    );
    this.lost = oomKilled ? sandboxOutOfMemory(this.memoryBytes) : sandboxGone(cause);
    return this.lost;
  }

  /** The engine answers 404/409 once the container is gone or stopped (OOM kill, reaper). */
  private async translateDockerError(error: unknown): Promise<never> {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 404 || status === 409) throw await this.lostError(error);
    throw error;
  }

  private listingOptions(options: FileOptions): ExecOptions {
    return {
      timeoutMs: LISTING_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    };
  }

  private runHelper(
    script: string,
    args: string[],
    stdin?: Buffer | Readable,
    signal?: AbortSignal,
    timeoutMs = HELPER_TIMEOUT_MS,
  ): Promise<RawExecResult> {
    return this.rawHelper(script, args, stdin, signal, timeoutMs).catch((error: unknown) =>
      this.translateDockerError(error),
    );
  }

  private rawHelper(
    script: string,
    args: string[],
    stdin: Buffer | Readable | undefined,
    signal: AbortSignal | undefined,
    timeoutMs: number,
  ): Promise<RawExecResult> {
    return this.serial(() =>
      rawExec(
        this.docker,
        this.id,
        `bash -c '${script.replaceAll("'", `'\\''`)}' helper ${args.map(quote).join(" ")}`,
        {
          cwd: WORKSPACE_DIR,
          nproc: 0,
          timeoutMs,
          maxOutputBytes: HELPER_MAX_OUTPUT,
          containerGone: this.gone,
          ...(stdin === undefined ? {} : { stdin }),
          ...(signal === undefined ? {} : { signal }),
        },
      ),
    );
  }

  /**
   * Runs `task` after every command queued before it. One command at a time is what lets a
   * command's end (and its timeout kill) remove every process but the container's own: a
   * double-forked orphan carries no mark of the command that started it (exec.ts).
   */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.lane.then(task, task);
    this.lane = run.catch(() => undefined);
    return run;
  }

  /** The file operations' runner, stopped by `signal` like any other command. */
  private helperWith(signal: AbortSignal | undefined): HelperRunner {
    return async (script, args, stdin) => {
      this.assertAlive();
      const result = await this.runHelper(script, args, stdin, signal);
      if (result.containerGone) throw await this.lostError();
      return result;
    };
  }
}

function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

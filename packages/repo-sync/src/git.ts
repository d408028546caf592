// Runs the git CLI with an environment we build from nothing: the worker's own environment
// (database URL, encryption key, provider keys) never reaches git or anything git starts.
// Errors carry git's stderr through the masker, so a credential can never surface in one.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { createInterface } from "node:readline";
import { PassThrough, type Readable } from "node:stream";
import { AppError } from "@secondshift/errors";
import type { SecretMasker } from "@secondshift/logging";

export interface GitRunOptions {
  cwd?: string;
  env: Record<string, string>;
  timeoutMs: number;
  gitBinary?: string;
  masker?: SecretMasker;
  /** Cap on captured stdout; larger output fails instead of filling memory. */
  maxOutputBytes?: number;
  /** runGit only: aborting stops git (SIGTERM down the same chain as an early stop). */
  signal?: AbortSignal;
}

/** Where git and its helpers are looked up; the worker's PATH is not inherited. */
export const DEFAULT_GIT_PATH = "/usr/local/bin:/usr/bin:/bin";
const MAX_STDERR = 8 * 1024;

export function gitFailure(
  message: string,
  reason: string,
  stderr = "",
  masker?: SecretMasker,
): AppError {
  const detail = stderr.trim().split("\n").slice(-3).join(" ").slice(0, 500);
  const text = detail === "" ? message : `${message} git said: ${detail}`;
  return new AppError("BAD_GATEWAY", masker ? masker.mask(text) : text, { reason });
}

/** coreutils `timeout` exit codes: the deadline passed, or git could not be started. */
const TIMED_OUT = new Set([124, 137]);
const NOT_STARTED = new Set([126, 127]);

/**
 * git runs under coreutils' `timeout`, a process of its own that kills git at the deadline, and
 * `timeout` runs with a parent-death signal (util-linux `setpriv --pdeathsig TERM`, i.e.
 * prctl(PR_SET_PDEATHSIG)): when the worker dies, even by SIGKILL, the kernel sends `timeout`
 * SIGTERM, which it passes on to git and git's whole process group. So no git outlives the
 * worker, and none outlives its deadline. Stopping it early means SIGTERM to the same chain.
 */
function spawnGit(
  args: readonly string[],
  options: GitRunOptions,
): ChildProcessByStdio<null, Readable, Readable> {
  const seconds = Math.max(1, Math.ceil(options.timeoutMs / 1000));
  return spawn(
    "setpriv",
    [
      "--pdeathsig",
      "TERM",
      "--",
      "timeout",
      "-s",
      "KILL",
      `${seconds}s`,
      options.gitBinary ?? "git",
      ...args,
    ],
    { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] },
  );
}

export function runGit(args: readonly string[], options: GitRunOptions): Promise<Buffer> {
  const maxOutput = options.maxOutputBytes ?? 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawnGit(args, options);
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    // `timeout` passes SIGTERM on to git's whole process group (helpers included).
    const stop = () => child.kill("SIGTERM");
    if (options.signal?.aborted) stop();
    options.signal?.addEventListener("abort", stop, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutput) stop();
      else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < MAX_STDERR) err += chunk.toString("utf8");
    });
    child.on("error", (error) =>
      reject(gitFailure(`Could not start git (${error.message}).`, "GIT_UNAVAILABLE")),
    );
    child.on("close", (code) => {
      options.signal?.removeEventListener("abort", stop);
      if (code === 0) return resolve(Buffer.concat(out));
      if (options.signal?.aborted)
        return reject(gitFailure(`git ${args[0] ?? ""} was stopped.`, "GIT_STOPPED"));
      if (outBytes > maxOutput)
        return reject(gitFailure("git produced more output than allowed.", "GIT_OUTPUT_TOO_LARGE"));
      if (code !== null && NOT_STARTED.has(code))
        return reject(gitFailure("Could not start git.", "GIT_UNAVAILABLE", err, options.masker));
      if (code === null || TIMED_OUT.has(code))
        return reject(
          gitFailure("git took too long and was stopped.", "GIT_TIMEOUT", err, options.masker),
        );
      reject(gitFailure(`git ${args[0] ?? ""} failed.`, "GIT_FAILED", err, options.masker));
    });
  });
}

/**
 * Starts git and hands back its stdout as a stream (git archive). The stream ends only once git
 * has exited with 0; a git that fails or is stopped at its deadline, even after its last byte,
 * errors the stream instead, so a cut-short archive never passes for a whole one. Destroying
 * the stream stops git.
 */
export function streamGit(args: readonly string[], options: GitRunOptions): Readable {
  const child = spawnGit(args, options);
  const out = new PassThrough();
  child.stdout.pipe(out, { end: false });
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (err.length < MAX_STDERR) err += chunk.toString("utf8");
  });
  child.on("error", (error) =>
    out.destroy(gitFailure(`Could not start git (${error.message}).`, "GIT_UNAVAILABLE")),
  );
  child.on("close", (code) => {
    if (code === 0) return void out.end();
    const why =
      code === null || TIMED_OUT.has(code)
        ? gitFailure("git took too long and was stopped.", "GIT_TIMEOUT", err, options.masker)
        : gitFailure(`git ${args[0] ?? ""} failed.`, "GIT_FAILED", err, options.masker);
    out.destroy(why);
  });
  out.once("close", () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  });
  return out;
}

/**
 * Runs git and hands each line of its stdout to `onLine` as it arrives (constant memory);
 * resolves once git has exited with 0, so a listing cut short by a failure or the deadline is
 * an error, never a shorter listing.
 */
export async function gitLines(
  args: readonly string[],
  options: GitRunOptions,
  onLine: (line: string) => void,
): Promise<void> {
  const child = spawnGit(args, options);
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (err.length < MAX_STDERR) err += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on("error", (error) =>
      reject(gitFailure(`Could not start git (${error.message}).`, "GIT_UNAVAILABLE")),
    );
    child.on("close", resolve);
  });
  exited.catch(() => undefined);
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity }))
    onLine(line);
  const code = await exited;
  if (code === 0) return;
  if (code === null || TIMED_OUT.has(code))
    throw gitFailure("git took too long and was stopped.", "GIT_TIMEOUT", err, options.masker);
  throw gitFailure(`git ${args[0] ?? ""} failed.`, "GIT_FAILED", err, options.masker);
}

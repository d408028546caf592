// Runs the git CLI with an environment we build from nothing: the worker's own environment
// (database URL, encryption key, provider keys) never reaches git or anything git starts.
// Errors carry git's stderr through the masker, so a credential can never surface in one.
import { spawn } from "node:child_process";
import type { Readable } from "node:stream";
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

export function runGit(args: readonly string[], options: GitRunOptions): Promise<Buffer> {
  const maxOutput = options.maxOutputBytes ?? 16 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn(options.gitBinary ?? "git", args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: options.timeoutMs,
      killSignal: "SIGKILL",
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxOutput) child.kill("SIGKILL");
      else out.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (err.length < MAX_STDERR) err += chunk.toString("utf8");
    });
    child.on("error", (error) =>
      reject(gitFailure(`Could not start git (${error.message}).`, "GIT_UNAVAILABLE")),
    );
    child.on("close", (code, signal) => {
      if (code === 0) return resolve(Buffer.concat(out));
      if (outBytes > maxOutput)
        return reject(gitFailure("git produced more output than allowed.", "GIT_OUTPUT_TOO_LARGE"));
      if (signal !== null)
        return reject(
          gitFailure("git took too long and was stopped.", "GIT_TIMEOUT", err, options.masker),
        );
      reject(gitFailure(`git ${args[0] ?? ""} failed.`, "GIT_FAILED", err, options.masker));
    });
  });
}

/** Starts git and hands back its stdout as a stream (git archive); errors end the stream. */
export function streamGit(args: readonly string[], options: GitRunOptions): Readable {
  const child = spawn(options.gitBinary ?? "git", args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ["ignore", "pipe", "pipe"],
    timeout: options.timeoutMs,
    killSignal: "SIGKILL",
  });
  let err = "";
  child.stderr.on("data", (chunk: Buffer) => {
    if (err.length < MAX_STDERR) err += chunk.toString("utf8");
  });
  child.on("close", (code) => {
    if (code !== 0)
      child.stdout.destroy(
        gitFailure(`git ${args[0] ?? ""} failed.`, "GIT_FAILED", err, options.masker),
      );
  });
  return child.stdout;
}

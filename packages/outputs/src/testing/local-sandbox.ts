// A stand-in for a run sandbox that runs each command with bash in a folder on this machine,
// with the same stdin and output caps: for testing the scripts the worker runs in a sandbox
// (real git, real coreutils) without a container. Only for tests of those scripts.
import { spawn } from "node:child_process";
import type { ExecSandbox } from "../changes/workspace-index.ts";

export function localSandbox(dir: string): ExecSandbox {
  return {
    exec: (command, options) =>
      new Promise((resolve, reject) => {
        const child = spawn("bash", ["-c", command], { cwd: dir, stdio: ["pipe", "pipe", "pipe"] });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        let bytes = 0;
        let truncated = false;
        child.stdout.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > (options.maxOutputBytes ?? Infinity)) truncated = true;
          else out.push(chunk);
        });
        child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
        child.on("error", reject);
        child.on("close", (code) =>
          resolve({
            exitCode: code,
            stdout: Buffer.concat(out).toString("utf8"),
            stderr: Buffer.concat(err).toString("utf8"),
            truncated,
          }),
        );
        child.stdin.end(options.stdin ?? "");
      }),
  };
}

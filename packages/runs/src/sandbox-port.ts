// Adapts a sandbox to the agent loop's SandboxPort: paths stay relative to /workspace (the
// sandbox refuses escapes), listing and search run as commands inside the sandbox.
import type { SandboxPort } from "@secondshift/agent";
import type { RunSandbox } from "./ports.ts";

const MAX_READ_BYTES = 512 * 1024;

function quote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

export function sandboxPort(sandbox: RunSandbox): SandboxPort {
  return {
    async exec(command, options = {}) {
      const result = await sandbox.exec(command, {
        ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
      });
      return {
        exitCode: result.exitCode ?? -1,
        stdout: result.stdout,
        stderr: result.oomKilled
          ? `${result.stderr}\n[the sandbox ran out of memory]`
          : result.stderr,
        truncated: result.truncated,
        timedOut: result.timedOut,
      };
    },
    async readFile(path) {
      return (await sandbox.readFile(path, MAX_READ_BYTES)).toString("utf8");
    },
    async writeFile(path, content) {
      await sandbox.writeFile(path, content);
    },
    async listFiles(path, options = {}) {
      const depth = options.recursive ? "" : "-maxdepth 1";
      const name = options.pattern ? `-name ${quote(options.pattern)}` : "";
      const result = await sandbox.exec(
        `find ${quote(path || ".")} ${depth} -mindepth 1 ${name} -not -path '*/.git/*' -not -name .git | sort | head -n 5000`,
        { timeoutMs: 30_000 },
      );
      if (result.exitCode !== 0) throw new Error(result.stderr.trim() || `Cannot list ${path}.`);
      return result.stdout.split("\n").filter(Boolean);
    },
    async search(pattern, path) {
      const result = await sandbox.exec(
        `rg --line-number --max-count 50 --max-columns 300 -e ${quote(pattern)} ${quote(path || ".")} | head -n 500`,
        {
          timeoutMs: 30_000,
        },
      );
      return (
        result.stdout ||
        (result.stderr.trim() ? `search failed: ${result.stderr.trim()}` : "no matches")
      );
    },
  };
}

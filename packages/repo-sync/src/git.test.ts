// git runs bounded by its deadline, and ends with the worker that started it even when that
// worker is SIGKILLed (no orphan runs on); a missing git is reported as such.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_GIT_PATH, runGit } from "./git.ts";

let dir: string;
let slowGit: string;

/** A "git" that writes its pid and then hangs. */
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "secondshift-git-test-"));
  slowGit = join(dir, "slow-git");
  await writeFile(slowGit, `#!/bin/sh\necho $$ > "${dir}/pid"\nexec sleep 600\n`);
  await chmod(slowGit, 0o755);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const env = { PATH: DEFAULT_GIT_PATH };

/** Running (a zombie waiting for its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

function pidOf(): Promise<number> {
  return vi.waitFor(
    async () => {
      const text = (await readFile(join(dir, "pid"), "utf8").catch(() => "")).trim();
      if (!text) throw new Error("the fake git never started");
      return Number(text);
    },
    { timeout: 5_000, interval: 25 },
  );
}

describe("runGit", () => {
  it("stops git at its deadline with a clear error", async () => {
    await rm(join(dir, "pid"), { force: true });
    const started = Date.now();
    await expect(
      runGit(["fetch"], { env, timeoutMs: 1_000, gitBinary: slowGit }),
    ).rejects.toMatchObject({ reason: "GIT_TIMEOUT" });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(alive(await pidOf())).toBe(false);
  });

  it("a git started by a worker that is SIGKILLed ends with it, long before its deadline", async () => {
    await rm(join(dir, "pid"), { force: true });
    // A stand-in worker: starts git with a 10 minute deadline, then is killed with SIGKILL.
    const worker = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "-e",
        `import("${join(import.meta.dirname, "git.ts")}").then((m) => m.runGit(["fetch"], { env: { PATH: "${DEFAULT_GIT_PATH}" }, timeoutMs: 600000, gitBinary: "${slowGit}" }))`,
      ],
      { stdio: "ignore" },
    );
    const gitPid = await pidOf();
    expect(alive(gitPid)).toBe(true);
    worker.kill("SIGKILL");
    await vi.waitFor(() => expect(alive(gitPid)).toBe(false), { timeout: 5_000, interval: 25 });
  });

  it("a missing git binary is reported as unavailable", async () => {
    await expect(
      runGit(["version"], { env, timeoutMs: 5_000, gitBinary: join(dir, "no-such-git") }),
    ).rejects.toMatchObject({ reason: "GIT_UNAVAILABLE" });
  });
});

// git's output streamed (the sandbox copy's `git archive`, the size check's `git ls-tree`) counts
// only when git exits with 0: a git that dies after its last byte must not pass for a complete
// archive or listing (C12: a cut-short copy or a short count would slip through).
import { readFileSync } from "node:fs";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_GIT_PATH, gitLines, streamGit } from "./git.ts";

let dir: string;
const env = { PATH: DEFAULT_GIT_PATH };

/** A stand-in "git" running `script`. */
async function fakeGit(name: string, script: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${script}\n`);
  await chmod(path, 0o755);
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "secondshift-stream-git-test-"));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("streamed git output", () => {
  it("[C12] an archive whose git fails after its last byte errors instead of ending", async () => {
    const git = await fakeGit(
      "dies",
      "printf 'first entries'; echo 'fatal: packed object is corrupt' >&2; exit 128",
    );
    const received: Buffer[] = [];
    const stream = streamGit(["archive"], { env, timeoutMs: 10_000, gitBinary: git });
    const read = (async () => {
      for await (const chunk of stream) received.push(chunk as Buffer);
    })();
    await expect(read).rejects.toMatchObject({
      reason: "GIT_FAILED",
      message: "git archive failed. git said: fatal: packed object is corrupt",
    });
    expect(Buffer.concat(received).toString()).toBe("first entries");
  });

  it("an archive ends normally when git exits with 0", async () => {
    const git = await fakeGit("ok", "printf 'whole archive'");
    const chunks: Buffer[] = [];
    for await (const chunk of streamGit(["archive"], { env, timeoutMs: 10_000, gitBinary: git }))
      chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe("whole archive");
  });

  it("[C12] a listing whose git fails is an error, never a shorter count", async () => {
    const git = await fakeGit("short", "printf 'blob 1\\nblob 2\\n'; exit 1");
    let lines = 0;
    await expect(
      gitLines(["ls-tree"], { env, timeoutMs: 10_000, gitBinary: git }, () => lines++),
    ).rejects.toMatchObject({ reason: "GIT_FAILED" });
    expect(lines).toBe(2);
  });

  it("destroying the stream stops git", async () => {
    const git = await fakeGit("slow", `echo $$ > "${dir}/pid"; printf 'start'; exec sleep 600`);
    const stream = streamGit(["archive"], { env, timeoutMs: 600_000, gitBinary: git });
    await new Promise((resolve) => stream.once("data", resolve));
    const pid = Number((await readFile(join(dir, "pid"), "utf8")).trim());
    stream.destroy();
    await vi.waitFor(() => expect(running(pid)).toBe(false), { timeout: 5_000, interval: 25 });
  });
});

/** Running (a zombie waiting for its reaper counts as gone). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

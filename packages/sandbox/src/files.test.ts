// Workspace file access and repository copy-in: escapes are refused, credentials stay out.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manager, runOptions } from "./testing/harness.ts";
import type { Sandbox } from "./sandbox.ts";

type Entry = Parameters<ReturnType<typeof tar.pack>["entry"]>[0];

function archive(entries: Entry[]): Readable {
  const pack = tar.pack();
  for (const e of entries) {
    if (e.type === "file") pack.entry(e, "x");
    else pack.entry(e);
  }
  pack.finalize();
  return Readable.from(pack);
}

describe("workspace files and copy-in", () => {
  let sb: Sandbox;
  let repo: string;
  beforeAll(async () => {
    sb = await manager().create(runOptions());
    repo = mkdtempSync(join(tmpdir(), "ss-repo-"));
    const git = (...args: string[]) =>
      execFileSync("git", ["-C", repo, ...args], { stdio: "pipe" });
    git("init", "-q");
    git("config", "user.email", "t@example.com");
    git("config", "user.name", "t");
    git(
      "remote",
      "add",
      "origin",
      "https://x-access-token:ghs_plantedInstallToken77@github.com/acme/app.git",
    );
    git("config", "credential.helper", "store --file=/tmp/plantedCredentialStore");
    git(
      "config",
      "http.https://github.com/.extraheader",
      "AUTHORIZATION: basic plantedBasicAuth55",
    );
    execFileSync("sh", [
      "-c",
      `echo 'print(1)' > ${repo}/main.py && mkdir ${repo}/src && echo hi > ${repo}/src/a.txt && ln -s a.txt ${repo}/src/link`,
    ]);
    git("add", ".");
    git("commit", "-qm", "init");
  });
  afterAll(async () => {
    rmSync(repo, { recursive: true, force: true });
    await sb.destroy();
  });

  it("[C12] copy-in carries the repository but no git credentials or tokenised remote URLs", async () => {
    await sb.copyInDirectory(repo);
    const r = await sb.exec(
      "git log --oneline | wc -l; git status --porcelain | wc -l; cat src/link; git remote get-url origin; grep -rI -e planted -e ghs_ . ; echo grep=$?",
    );
    expect(r.stdout).toContain("1\n0\nhi\nhttps://github.com/acme/app.git\n");
    expect(r.stdout).toContain("grep=1");
    const config = (await sb.readFile(".git/config")).toString();
    expect(config).not.toMatch(/credential|extraheader|planted|ghs_/);
  });

  it("reads, writes and lists inside the workspace", async () => {
    await sb.writeFile("new/dir/file.txt", "content\n");
    expect((await sb.readFile("/workspace/new/dir/file.txt")).toString()).toBe("content\n");
    expect(await sb.listDir("new/dir")).toEqual([{ name: "file.txt", type: "file", size: 8 }]);
    const names = (await sb.listDir()).map((e) => `${e.type}:${e.name}`);
    expect(names).toEqual(
      expect.arrayContaining(["file:main.py", "directory:src", "directory:.git"]),
    );
    expect((await sb.exec("stat -c %U new/dir/file.txt")).stdout).toBe("sandbox\n");
  });

  it("refuses .. and absolute paths that leave the workspace", async () => {
    for (const p of [
      "../etc/passwd",
      "/etc/passwd",
      "src/../../etc/passwd",
      "/workspace/../etc/passwd",
      "/tmp/x",
    ]) {
      await expect(sb.readFile(p)).rejects.toMatchObject({
        reason: "SANDBOX_PATH_OUTSIDE_WORKSPACE",
      });
      await expect(sb.writeFile(p, "x")).rejects.toMatchObject({
        reason: "SANDBOX_PATH_OUTSIDE_WORKSPACE",
      });
    }
    await expect(sb.listDir("..")).rejects.toMatchObject({
      reason: "SANDBOX_PATH_OUTSIDE_WORKSPACE",
    });
    await expect(sb.exec("pwd", { cwd: "../" })).rejects.toMatchObject({
      reason: "SANDBOX_PATH_OUTSIDE_WORKSPACE",
    });
  });

  it("refuses symlinks that lead outside the workspace", async () => {
    await sb.exec("ln -s /etc/passwd out-file; ln -s /etc out-dir; ln -s /tmp/newfile out-new");
    await expect(sb.readFile("out-file")).rejects.toMatchObject({
      reason: "SANDBOX_PATH_OUTSIDE_WORKSPACE",
    });
    await expect(sb.readFile("out-dir/passwd")).rejects.toMatchObject({
      reason: "SANDBOX_PATH_OUTSIDE_WORKSPACE",
    });
    await expect(sb.listDir("out-dir")).rejects.toMatchObject({
      reason: "SANDBOX_PATH_OUTSIDE_WORKSPACE",
    });
    await expect(sb.writeFile("out-new", "x")).rejects.toMatchObject({
      reason: "SANDBOX_PATH_OUTSIDE_WORKSPACE",
    });
    expect((await sb.exec("test -e /tmp/newfile && echo created || echo absent")).stdout).toBe(
      "absent\n",
    );
    const cwd = await sb.exec("pwd", { cwd: "out-dir" });
    expect(cwd.exitCode).toBe(126);
    expect(cwd.stderr).toContain("outside the workspace");
    // A symlink that stays inside is fine.
    expect((await sb.readFile("src/link")).toString()).toBe("hi\n");
  });

  it("rejects archives with entries that escape, and leaves nothing behind", async () => {
    const bad: Entry[][] = [
      [
        { name: "ok.txt", type: "file", size: 1 },
        { name: "../escape.txt", type: "file", size: 1 },
      ],
      [{ name: "/abs.txt", type: "file", size: 1 }],
      [{ name: "l", type: "symlink", linkname: "/etc" }],
      [{ name: "l", type: "symlink", linkname: "../../tmp" }],
      [
        { name: "d", type: "symlink", linkname: "." },
        { name: "d/x", type: "file", size: 1 },
      ],
      [{ name: "dev", type: "character-device", devmajor: 1, devminor: 3 }],
      [{ name: "h", type: "link", linkname: "/etc/passwd" }],
    ];
    for (const entries of bad) {
      await sb.exec("find /workspace -mindepth 1 -delete");
      await expect(sb.copyInArchive(archive(entries))).rejects.toMatchObject({
        reason: "SANDBOX_ARCHIVE_ENTRY_ESCAPES",
      });
      expect(
        (await sb.exec("find /workspace -mindepth 1 | wc -l; ls /tmp; ls / | grep -c escape"))
          .stdout,
      ).toBe("0\n0\n");
    }
  });

  it("resets owners and strips setuid bits from archive entries", async () => {
    await sb.copyInArchive(
      archive([{ name: "suid", type: "file", size: 1, mode: 0o4755, uid: 0, gid: 0 }]),
    );
    expect((await sb.exec("stat -c '%a %u' suid")).stdout).toBe("755 10001\n");
  });
});

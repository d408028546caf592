// Big repositories are bounded (C12, issue #11 item 7): the size of the tree at the run's commit
// is read from git's metadata after the fetch (objects only) and before anything is exported,
// so a small push that expands to a huge tree is refused without writing any of it.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchRepository } from "./fetch-repository.ts";
import { checkTreeSize, measureTree } from "./tree-size.ts";

const MIB = 1024 * 1024;
let root: string;
let savedTmp: string | undefined;

/** A repository with `files` (path → content; `->target`: a symlink; `#!`: executable), one commit. */
async function makeRepo(name: string, files: Record<string, string>): Promise<string> {
  const work = join(root, name);
  await mkdir(work, { recursive: true });
  const git = (...args: string[]) =>
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: work });
  git("init", "--quiet", "--initial-branch=main");
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(work, path, ".."), { recursive: true });
    if (content.startsWith("->")) await symlink(content.slice(2), join(work, path));
    else
      await writeFile(join(work, path), content, {
        mode: content.startsWith("#!") ? 0o755 : 0o644,
      });
  }
  git("add", "-A");
  git("commit", "--quiet", "-m", "c");
  return work;
}

/** Fetched like the worker does (objects only, no working tree) into a fresh folder. */
async function fetched(work: string): Promise<{ dir: string; commit: string }> {
  const dir = join(await mkdtemp(join(root, "fetch-")), "repo");
  const { commit } = await fetchRepository({
    cloneUrl: `file://${work}`,
    ref: { branch: "main" },
    dir,
    workDir: root,
    policy: {
      outbound: {
        production: false,
        allowHttp: false,
        allowedPrivateHosts: [],
        allowedPrivateCidrs: [],
      },
      allowFileRemotes: true,
    },
  });
  return { dir, commit };
}

/** Every path under `dir` with its size: equal before and after means nothing was written. */
async function snapshot(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return Promise.all(entries.sort().map(async (e) => `${e} ${(await stat(join(dir, e))).size}`));
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "repo-sync-tree-size-test-"));
  // The worker's temporary files go to os.tmpdir(): a private one shows whatever is written.
  savedTmp = process.env.TMPDIR;
  process.env.TMPDIR = await mkdtemp(join(root, "worker-tmp-"));
});
afterAll(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
  execFileSync("rm", ["-rf", root]);
});

describe("repository size limits", () => {
  it("[C12] a tree over the byte limit is refused from git's metadata before anything is written: a 24 MiB tree from a fetch of a few KiB", async () => {
    // One compressible 1 MiB blob at 24 paths: tiny in git, 24 MiB once written out.
    const blob = "a".repeat(MIB);
    const files = Object.fromEntries(
      Array.from({ length: 24 }, (_, i) => [`copies/${i}.txt`, blob]),
    );
    const { dir, commit } = await fetched(await makeRepo("bytes", files));
    const fetchedBytes = execFileSync("du", ["-sb", dir]).toString().split("\t")[0];
    expect(Number(fetchedBytes)).toBeLessThan(MIB);
    // Objects only: no file of the repository was checked out.
    expect(await readdir(dir)).toEqual([".git"]);
    const before = [await snapshot(dir), await snapshot(process.env.TMPDIR!)];

    await expect(
      checkTreeSize(dir, commit, { maxBytes: 10 * MIB, maxFiles: 1000 }),
    ).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      reason: "REPOSITORY_TOO_LARGE",
      message: expect.stringMatching(
        /holds 24\.0 MB of files; this server copies at most 10\.0 MB into a sandbox \(REPOSITORY_MAX_MB\)\. Nothing was copied/,
      ) as unknown,
    });
    expect([await snapshot(dir), await snapshot(process.env.TMPDIR!)]).toEqual(before);
  });

  it("[C12] a tree over the file-count limit is refused before anything is written", async () => {
    const files = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [`many/f${i}.txt`, `${i}\n`]),
    );
    const { dir, commit } = await fetched(await makeRepo("count", files));
    const before = [await snapshot(dir), await snapshot(process.env.TMPDIR!)];
    await expect(
      checkTreeSize(dir, commit, { maxBytes: 10 * MIB, maxFiles: 100 }),
    ).rejects.toMatchObject({
      reason: "REPOSITORY_TOO_MANY_FILES",
      message: expect.stringContaining(
        "has 150 files; this server copies at most 100 into a sandbox (REPOSITORY_MAX_FILES)",
      ) as unknown,
    });
    expect([await snapshot(dir), await snapshot(process.env.TMPDIR!)]).toEqual(before);
  });

  it("[C12] a tree within both limits passes, measured exactly (files, symlinks, nested folders)", async () => {
    const work = await makeRepo("ok", {
      "README.md": "hello\n",
      "bin/run.sh": "#!/bin/sh\necho hi\n",
      "a/b/c/deep.txt": "x".repeat(1000),
      "link.md": "->README.md",
    });
    const { dir, commit } = await fetched(work);
    const size = { files: 4, bytes: 6 + 18 + 1000 + "README.md".length };
    expect(await measureTree(dir, commit)).toEqual(size);
    expect(await checkTreeSize(dir, commit, { maxBytes: size.bytes, maxFiles: 4 })).toEqual(size);
  });

  it("a commit that is not a full SHA, or not in the repository, is an error, never a size of 0", async () => {
    const { dir } = await fetched(await makeRepo("bad", { "a.txt": "a\n" }));
    await expect(measureTree(dir, "--output=/tmp/x")).rejects.toMatchObject({
      reason: "INVALID_COMMIT",
    });
    await expect(measureTree(dir, "0".repeat(40))).rejects.toMatchObject({
      reason: "GIT_FAILED",
    });
  });
});

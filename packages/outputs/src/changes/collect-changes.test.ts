// The worker's own view of a run's changes (issue #24 item 3, O04): real git on both sides,
// the sandbox's scripts run by bash in a folder (localSandbox). The sandbox's `.git` is the
// agent's and is never read: rewriting it hides nothing.
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listCommitTree, readObject } from "@secondshift/repo-sync";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { localSandbox } from "../testing/local-sandbox.ts";
import { collectChanges, type BaseTree, type ChangeLimits } from "./collect-changes.ts";
import { workspaceDiff } from "./workspace-diff.ts";

const limits: ChangeLimits = {
  maxFiles: 20,
  maxFileBytes: 100_000,
  maxTotalBytes: 1_000_000,
  timeoutMs: 30_000,
};

const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    "git",
    ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false", ...args],
    { cwd, encoding: "utf8" },
  ).trim();

let root: string;
let repo: string;
let workspace: string;
let base: BaseTree;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), "changes-"));
  repo = join(root, "repo");
  workspace = join(root, "workspace");
  mkdirSync(join(repo, "src"), { recursive: true });
  mkdirSync(join(repo, "dist"));
  git(root, "init", "-q", repo);
  writeFileSync(join(repo, "README.md"), "# App\n\nHello.\n");
  writeFileSync(join(repo, "src/a.ts"), "export const a = 1;\nexport const b = 2;\n");
  writeFileSync(join(repo, "run.sh"), "#!/bin/sh\necho hi\n");
  writeFileSync(join(repo, ".gitignore"), "node_modules/\ndist/\n");
  writeFileSync(join(repo, "dist/tracked.js"), "old build\n");
  writeFileSync(join(repo, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
  symlinkSync("README.md", join(repo, "readme-link"));
  git(repo, "add", "-A");
  git(repo, "add", "-f", "dist/tracked.js");
  git(repo, "commit", "-qm", "base");
  const commit = git(repo, "rev-parse", "HEAD");
  mkdirSync(workspace);
  execFileSync("bash", ["-c", `git -C "${repo}" archive ${commit} | tar -x -C "${workspace}"`]);
  base = {
    entries: await listCommitTree(repo, commit),
    read: (sha, max) => readObject(repo, sha, max),
  };
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const at = (path: string) => join(workspace, path);
const collect = (l: ChangeLimits = limits) => collectChanges(localSandbox(workspace), base, l);

describe("collectChanges", () => {
  it("finds nothing in an untouched workspace", async () => {
    expect(await collect()).toEqual({ files: [] });
  });

  it("lists added, modified, deleted, executable and linked files with their content and patch", async () => {
    writeFileSync(at("src/a.ts"), "export const a = 1;\nexport const b = 3;\n");
    writeFileSync(at("src/new.ts"), "export {};\n");
    unlinkSync(at("README.md"));
    unlinkSync(at("readme-link"));
    chmodSync(at("run.sh"), 0o755);
    symlinkSync("src/a.ts", at("a-link"));
    writeFileSync(at("dist/tracked.js"), "new build\n");
    mkdirSync(at("node_modules/x"), { recursive: true });
    writeFileSync(at("node_modules/x/index.js"), "ignored\n");
    const result = await collect();
    if (!("files" in result)) throw new Error(result.problem);
    const byPath = Object.fromEntries(result.files.map((f) => [f.path, f]));
    expect(Object.keys(byPath)).toEqual([
      "README.md",
      "a-link",
      "dist/tracked.js",
      "readme-link",
      "run.sh",
      "src/a.ts",
      "src/new.ts",
    ]);
    expect(byPath["src/a.ts"]).toMatchObject({
      status: "modified",
      mode: "100644",
      content: "export const a = 1;\nexport const b = 3;\n",
      additions: 1,
      deletions: 1,
    });
    expect(byPath["src/a.ts"]?.patch).toContain("-export const b = 2;\n+export const b = 3;");
    expect(byPath["src/new.ts"]).toMatchObject({ status: "added", additions: 1, deletions: 0 });
    expect(byPath["README.md"]).toMatchObject({ status: "deleted", mode: null, content: null });
    expect(byPath["README.md"]?.deletions).toBe(3);
    expect(byPath["run.sh"]).toMatchObject({ status: "modified", mode: "100755" });
    expect(byPath["a-link"]).toMatchObject({
      status: "added",
      mode: "120000",
      content: "src/a.ts",
    });
    expect(byPath["readme-link"]).toMatchObject({ status: "deleted" });
    // Tracked though a .gitignore matches it: still compared.
    expect(byPath["dist/tracked.js"]).toMatchObject({ status: "modified", content: "new build\n" });
  });

  it("[O04] a rewritten sandbox .git hides no change: the agent's own commit, index and excludes are not read", async () => {
    writeFileSync(at("src/a.ts"), "export const a = 'changed';\n");
    writeFileSync(at("hidden.txt"), "sneaked in\n");
    // The agent commits its change and excludes its new file in its own .git.
    git(workspace, "init", "-q");
    git(workspace, "add", "-A");
    git(workspace, "commit", "-qm", "looks like the base");
    writeFileSync(at(".git/info/exclude"), "hidden.txt\n");
    git(workspace, "update-index", "--assume-unchanged", "src/a.ts");
    const result = await collect();
    if (!("files" in result)) throw new Error(result.problem);
    expect(result.files.map((f) => f.path)).toEqual(["hidden.txt", "src/a.ts"]);
    expect(result.files.some((f) => f.path.startsWith(".git"))).toBe(false);
  });

  it("refuses a binary file, an embedded repository and more files than allowed, naming the problem", async () => {
    writeFileSync(at("logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9]));
    expect(await collect()).toEqual({
      problem: '"logo.png" is a binary file; only text files can be proposed',
    });
    writeFileSync(at("logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2]));
    mkdirSync(at("vendor/lib"), { recursive: true });
    writeFileSync(at("vendor/lib/x.c"), "int x;\n");
    git(at("vendor/lib"), "init", "-q");
    expect(await collect()).toEqual({
      problem: '"vendor/lib" is a repository of its own (a submodule), which cannot be proposed',
    });
    rmSync(at("vendor"), { recursive: true });
    for (let i = 0; i < 3; i++) writeFileSync(at(`f${i}.txt`), `${i}\n`);
    expect(await collect({ ...limits, maxFiles: 2 })).toEqual({
      problem: "the run changed 3 files, more than the 2 the owner allows",
    });
    const small = await collect({ ...limits, maxFileBytes: 1 });
    expect("problem" in small && small.problem).toMatch(/is larger than 1 bytes$/);
  });

  it("deletes a binary file without showing it", async () => {
    unlinkSync(at("logo.png"));
    const result = await collect();
    expect(result).toMatchObject({
      files: [
        {
          path: "logo.png",
          status: "deleted",
          patch: "(logo.png: a binary or large file, deleted)",
        },
      ],
    });
  });
});

describe("workspaceDiff (the run's Changes)", () => {
  const diff = (maxBytes = 100_000) =>
    workspaceDiff(localSandbox(workspace), base, { maxBytes, timeoutMs: 30_000 });

  it("is empty for an untouched workspace and git's format for changes, a binary named only", async () => {
    expect(await diff()).toBe("");
    writeFileSync(at("src/a.ts"), "export const a = 1;\nexport const b = 3;\n");
    writeFileSync(at("new.txt"), "hello\n");
    unlinkSync(at("README.md"));
    chmodSync(at("run.sh"), 0o755);
    writeFileSync(at("logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9]));
    const text = await diff();
    expect(text).toContain(
      "diff --git a/README.md b/README.md\ndeleted file mode 100644\n--- a/README.md\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-# App\n",
    );
    expect(text).toContain(
      "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,1 @@\n+hello\n",
    );
    expect(text).toContain("diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n");
    expect(text).toContain("-export const b = 2;\n+export const b = 3;\n");
    expect(text).toContain("Binary files a/logo.png and b/logo.png differ");
  });

  it("[O04] shows what a rewritten sandbox .git would hide, and says where it was cut", async () => {
    writeFileSync(at("src/a.ts"), "export const a = 'changed';\n");
    writeFileSync(at("hidden.txt"), "sneaked in\n");
    git(workspace, "init", "-q");
    git(workspace, "add", "-A");
    git(workspace, "commit", "-qm", "looks like the base");
    writeFileSync(at(".git/info/exclude"), "hidden.txt\n");
    const text = await diff();
    expect(text).toContain("+++ b/hidden.txt");
    expect(text).toContain("+export const a = 'changed';");
    expect(text).not.toContain(".git/");
    expect(await diff(40)).toMatch(/\[diff truncated at 40 bytes\]$/);
  });
});

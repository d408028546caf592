// Prints how long the size check (measureTree: `git ls-tree -r` streamed line by line) takes on
// repositories of 10,000 / 100,000 / 200,000 files, beside `git archive` of the same commit
// (the copy's source) read to the end. The repositories are made with git fast-import (one
// small blob at every path), in a temporary folder removed at the end.
//   npm run bench -w @secondshift/repo-sync
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { measureTree } from "../src/tree-size.ts";

function makeRepo(root: string, files: number): { dir: string; commit: string } {
  const dir = join(root, `r${files}`);
  execFileSync("git", ["init", "-q", "-b", "main", dir]);
  const lines = ["blob", "mark :1", "data 6", "hello", "", "commit refs/heads/main"];
  lines.push("committer t <t@example.com> 0 +0000", "data 1", "x");
  for (let i = 0; i < files; i++) lines.push(`M 100644 :1 d${Math.floor(i / 1000)}/f${i}.txt`);
  execFileSync("git", ["-C", dir, "fast-import", "--quiet"], {
    input: lines.join("\n") + "\n",
    maxBuffer: 1 << 30,
  });
  const commit = execFileSync("git", ["-C", dir, "rev-parse", "main"]).toString().trim();
  return { dir, commit };
}

async function archiveBytes(dir: string, commit: string): Promise<number> {
  const git = spawn("git", ["-C", dir, "archive", "--format=tar", commit]);
  let bytes = 0;
  for await (const chunk of git.stdout) bytes += (chunk as Buffer).length;
  return bytes;
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await work();
  return [value, performance.now() - start];
}

const root = mkdtempSync(join(tmpdir(), "repo-sync-tree-bench-"));
try {
  for (const files of [10_000, 100_000, 200_000]) {
    const { dir, commit } = makeRepo(root, files);
    const runs: number[] = [];
    let size = { files: 0, bytes: 0 };
    for (let i = 0; i < 3; i++) {
      const [s, ms] = await timed(() => measureTree(dir, commit));
      size = s;
      runs.push(ms);
    }
    const [tarBytes, archiveMs] = await timed(() => archiveBytes(dir, commit));
    console.log(
      `${files.toLocaleString("en")} files: size check ${runs.map((ms) => ms.toFixed(0)).join(" / ")} ms ` +
        `(${size.files} entries, ${size.bytes} bytes); git archive to the end ${archiveMs.toFixed(0)} ms, ` +
        `${(tarBytes / 1024 / 1024).toFixed(1)} MiB of tar`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}

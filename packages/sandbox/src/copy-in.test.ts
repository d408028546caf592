// The repository copy streams from git straight into the sandbox (C12, issue #11 item 7):
// `git archive` → checks → `tar -x` in /workspace, with nothing written on the worker. A copy
// that fails — the stream breaks midway, or the extraction fails — leaves /workspace empty and
// says which part failed, promptly (the old path waited 60 s and gave an empty reason).
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manager, runOptions } from "./testing/harness.ts";
import type { Sandbox } from "./sandbox.ts";

const MIB = 1024 * 1024;
let repo: string;

/** `git archive` of the test repository's HEAD, as the worker streams it. */
function gitArchive(): Readable {
  return spawn("git", ["-C", repo, "archive", "--format=tar", "HEAD"], {
    stdio: ["ignore", "pipe", "inherit"],
  }).stdout;
}

/** The first `bytes` of `source`, then an error, as a git that dies midway looks. */
function breaksAfter(source: Readable, bytes: number): Readable {
  const out = new PassThrough();
  let seen = 0;
  source.on("data", (chunk: Buffer) => {
    if (seen >= bytes) return;
    const part = chunk.subarray(0, bytes - seen);
    seen += part.length;
    out.write(part);
    if (seen >= bytes) {
      source.destroy();
      out.destroy(new Error("git archive failed. git said: fatal: packed object is corrupt"));
    }
  });
  return out;
}

async function workspaceEntries(sb: Sandbox): Promise<string> {
  return (await sb.exec("find /workspace -mindepth 1 | wc -l")).stdout;
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "ss-copy-in-"));
  const sh = (script: string) => execFileSync("sh", ["-c", script], { cwd: repo, stdio: "pipe" });
  sh(`git init -q && git config user.email t@example.com && git config user.name t
    mkdir -p src/deep/er bin "with space"
    printf 'hello\\n' > README.md
    printf '#!/bin/sh\\necho ran\\n' > bin/run.sh && chmod 755 bin/run.sh
    printf 'deep\\n' > src/deep/er/file.txt
    printf 'spaced\\n' > "with space/a b.txt"
    ln -s ../README.md src/readme-link
    ln -s deep src/deep-link
    head -c ${MIB} /dev/urandom > big.bin
    git add -A && git commit -qm init`);
});
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
});

describe("repository copy-in from git", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await manager().create(runOptions());
  });
  afterAll(async () => {
    await sb.destroy();
  });

  it("[C12] a repository streamed from git archive arrives intact in /workspace: contents, modes, symlinks", async () => {
    await sb.copyInArchive(gitArchive());
    const listing = await sb.exec(
      "find . -mindepth 1 -printf '%p %y %m %u %l\\n' | sort; sha256sum big.bin; cat src/readme-link; ./bin/run.sh",
    );
    const bigSum = execFileSync("sha256sum", ["big.bin"], { cwd: repo }).toString();
    expect(listing.stdout).toBe(
      [
        "./README.md f 644 sandbox ",
        "./big.bin f 644 sandbox ",
        "./bin d 755 sandbox ",
        "./bin/run.sh f 755 sandbox ",
        "./src d 755 sandbox ",
        "./src/deep d 755 sandbox ",
        "./src/deep-link l 777 sandbox deep",
        "./src/deep/er d 755 sandbox ",
        "./src/deep/er/file.txt f 644 sandbox ",
        "./src/readme-link l 777 sandbox ../README.md",
        "./with space d 755 sandbox ",
        "./with space/a b.txt f 644 sandbox ",
        bigSum.trimEnd(),
        "hello",
        "ran",
        "",
      ].join("\n"),
    );
    await sb.exec("find /workspace -mindepth 1 -delete");
  });

  it("[C12] a copy whose stream breaks midway (inside a file) leaves /workspace empty and names the step, promptly", async () => {
    const started = Date.now();
    // Half-way through big.bin (after the small files and folders git writes first).
    const error = await sb
      .copyInArchive(breaksAfter(gitArchive(), MIB / 2))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      reason: "SANDBOX_COPY_IN_READ_FAILED",
      message:
        "Reading the repository archive failed midway: git archive failed. git said: fatal: packed object is corrupt /workspace was emptied.",
    });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await workspaceEntries(sb)).toBe("0\n");
  });

  it("[C12] an extraction that fails (the workspace is full) leaves /workspace empty and says why", async () => {
    // The harness's /workspace holds 32 MiB; this archive's one file is 48 MiB of zeros,
    // generated as it streams (nothing of it is held in memory or on disk).
    const pack = tar.pack();
    pack.entry({ name: "small.txt", size: 3 }, "ok\n");
    const body = pack.entry({ name: "huge.bin", size: 48 * MIB });
    Readable.from(
      (function* () {
        for (let i = 0; i < 48; i++) yield Buffer.alloc(MIB);
      })(),
    ).pipe(body);
    body.on("finish", () => pack.finalize());
    const error = await sb.copyInArchive(Readable.from(pack)).catch((e: unknown) => e);
    expect(error).toMatchObject({
      reason: "SANDBOX_COPY_IN_FAILED",
      message: expect.stringMatching(
        /^Extracting the repository into \/workspace failed: tar: huge\.bin: Wrote only \d+ of \d+ bytes.* The sandbox's \/workspace is full: its size is the operator's SANDBOX_WORKSPACE_MB, .* \/workspace was emptied\.$/,
      ) as unknown,
    });
    expect(await workspaceEntries(sb)).toBe("0\n");
    // The sandbox is still usable afterwards.
    await sb.copyInArchive(gitArchive());
    expect((await sb.readFile("README.md")).toString()).toBe("hello\n");
  });
});

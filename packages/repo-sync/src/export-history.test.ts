import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportHistory } from "./export-history.ts";
import { exportTreeToDirectory } from "./export-tree.ts";
import { fetchRepository } from "./fetch-repository.ts";
import {
  createTestRepo,
  grepTree,
  startGitHttpServer,
  type GitHttpServer,
  type TestRepo,
} from "./testing/git-server.ts";

const TOKEN = "ghs_plantedHistoryToken_C12_1a2b3c4d5e";
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");
const policy = {
  outbound: {
    production: false,
    allowHttp: true,
    allowedPrivateHosts: [],
    allowedPrivateCidrs: ["127.0.0.1/32"],
  },
};

let repo: TestRepo;
let server: GitHttpServer;
let workDir: string;
let checkout: string;
let head: string;
const messages: string[] = [];

/** git as the agent would run it in the sandbox's copy: no config of this machine. */
const gitIn = (dir: string, ...args: string[]) =>
  execFileSync("git", ["-c", "safe.directory=*", ...args], {
    cwd: dir,
    env: { PATH: "/usr/bin:/bin", HOME: dir, GIT_CONFIG_NOSYSTEM: "1" },
  })
    .toString()
    .trim();

/** The tree and the history extracted into one folder, as the sandbox's copy-in does. */
async function sandboxCopy(maxCommits: number, maxBytes = 64 * 1024 * 1024) {
  const history = await exportHistory(checkout, head, {
    workDir,
    limits: { maxCommits, maxBytes },
    branch: "main",
  });
  const copy = await mkdtemp(join(tmpdir(), "secondshift-history-copy-"));
  await exportTreeToDirectory(checkout, head, copy, { workDir });
  if (history) {
    const chunks: Buffer[] = [];
    for await (const chunk of history.archive()) chunks.push(chunk as Buffer);
    execFileSync("tar", ["-x", "-C", copy], { input: Buffer.concat(chunks) });
    await history.cleanup();
  }
  return { history, copy };
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "secondshift-history-work-"));
  repo = await createTestRepo();
  for (let i = 1; i <= 8; i++) {
    messages.unshift(`change number ${i}`);
    head = await repo.commit(
      { "README.md": `version ${i}\n`, [`f${i}.txt`]: `${i}\n` },
      messages[0],
    );
  }
  server = await startGitHttpServer(join(repo.root, "srv"), {
    username: "x-access-token",
    token: TOKEN,
  });
  checkout = join(await mkdtemp(join(tmpdir(), "secondshift-history-fetch-")), "checkout");
  await fetchRepository({
    cloneUrl: `http://127.0.0.1:${server.port}/acme/widgets.git`,
    ref: { commit: head },
    credential: { username: "x-access-token", password: TOKEN },
    dir: checkout,
    workDir,
    policy,
    depth: 5,
  });
});
afterAll(async () => {
  await server.close();
});

describe("exportHistory", () => {
  it("[C12] the sandbox's .git holds the last commits with their messages and authors, and no remote, credential or URL", async () => {
    const { history, copy } = await sandboxCopy(5);
    expect(history?.commits).toBe(5);
    // As the copy arrives (before the sandbox's own git writes its index and reflog).
    for (const leak of ["FETCH_HEAD", "packed-refs", "logs", "hooks", "credentials"])
      expect(existsSync(join(copy, ".git", leak)), leak).toBe(false);
    gitIn(copy, "reset", "--quiet");
    expect(gitIn(copy, "log", "--format=%s").split("\n")).toEqual(messages.slice(0, 5));
    expect(gitIn(copy, "log", "-1", "--format=%an <%ae>")).toBe("Test <test@example.test>");
    expect(gitIn(copy, "rev-parse", "HEAD")).toBe(head);
    expect(gitIn(copy, "symbolic-ref", "HEAD")).toBe("refs/heads/main");
    // The copy is the commit: nothing to show before the agent changes anything.
    expect(gitIn(copy, "status", "--porcelain")).toBe("");
    expect(gitIn(copy, "remote", "-v")).toBe("");
    const config = await readFile(join(copy, ".git", "config"), "utf8");
    expect(config).not.toMatch(/url\s*=|extraheader|helper|\[remote|\[credential/i);
    for (const needle of [TOKEN, BASIC, `127.0.0.1:${server.port}`, checkout, workDir])
      expect(grepTree(copy, needle), needle).toEqual([]);
  });

  it("stops at the commit bound: fewer commits asked, fewer given", async () => {
    const { history, copy } = await sandboxCopy(3);
    expect(history?.commits).toBe(3);
    expect(gitIn(copy, "log", "--format=%s").split("\n")).toEqual(messages.slice(0, 3));
  });

  it("past the byte cap the history is cut to what fits, and none when not one commit fits", async () => {
    const full = await sandboxCopy(5);
    const cap = (full.history?.bytes ?? 0) - 1;
    const cut = await sandboxCopy(5, cap);
    expect(cut.history?.commits).toBeLessThan(5);
    expect(cut.history?.bytes).toBeLessThanOrEqual(cap);
    expect(gitIn(cut.copy, "log", "--format=%s").split("\n")).toEqual(
      messages.slice(0, cut.history?.commits ?? 0),
    );
    expect((await sandboxCopy(5, 1)).history).toBeNull();
    expect((await sandboxCopy(0)).history).toBeNull();
  });
});

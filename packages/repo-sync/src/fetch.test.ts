import { execFileSync } from "node:child_process";
import { watch } from "node:fs";
import { mkdtemp, readFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecretMasker } from "@secondshift/logging";
import type { OutboundPolicy } from "@secondshift/netguard";
import { exportTree, exportTreeToDirectory } from "./export-tree.ts";
import { FETCHED_REF, fetchRepository } from "./fetch-repository.ts";
import type { GitRemotePolicy } from "./remote.ts";
import {
  argvLoggingGit,
  createTestRepo,
  grepTree,
  startGitHttpServer,
  type GitHttpServer,
  type TestRepo,
} from "./testing/git-server.ts";

const TOKEN = "ghs_plantedRepoToken_C12_9f8e7d6c5b4a";
const BASIC = Buffer.from(`x-access-token:${TOKEN}`).toString("base64");
const outbound = (overrides: Partial<OutboundPolicy> = {}): OutboundPolicy => ({
  production: false,
  allowHttp: true,
  allowedPrivateHosts: [],
  allowedPrivateCidrs: ["127.0.0.1/32"],
  ...overrides,
});
const httpPolicy: GitRemotePolicy = { outbound: outbound() };
const filePolicy: GitRemotePolicy = { outbound: outbound(), allowFileRemotes: true };

let repo: TestRepo;
let server: GitHttpServer;
let first: string;
let head: string;
let workDir: string;
/** A file of the fetched commit, read from git's objects. */
const show = (dir: string, path: string) =>
  execFileSync("git", ["show", `${FETCHED_REF}:${path}`], { cwd: dir }).toString();
const newDir = async () =>
  join(await mkdtemp(join(tmpdir(), "secondshift-fetch-test-")), "checkout");

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "secondshift-fetch-work-"));
  repo = await createTestRepo();
  first = await repo.commit({ "README.md": "first\n", "src/a.txt": "a1\n" }, "first");
  head = await repo.commit(
    { "README.md": "second\n", ".secondshift.yaml": "version: 1\njobs: {}\n" },
    "second",
  );
  server = await startGitHttpServer(join(repo.root, "srv"), {
    username: "x-access-token",
    token: TOKEN,
  });
});
afterAll(async () => {
  await server.close();
});

describe("fetchRepository", () => {
  it("[C12][P03] fetches over HTTP with the credential, which lands in no URL, config file, argv or file of the checkout", async () => {
    const dir = await newDir();
    const logger = await argvLoggingGit(repo.root);
    const masker = new SecretMasker();
    const cloneUrl = `http://127.0.0.1:${server.port}/acme/widgets.git`;
    const result = await fetchRepository({
      cloneUrl,
      ref: { branch: "main" },
      credential: { username: "x-access-token", password: TOKEN },
      dir,
      workDir,
      policy: httpPolicy,
      masker,
      gitBinary: logger.binary,
    });
    expect(result.commit).toBe(head);
    expect(show(dir, "README.md")).toBe("second\n");
    // The server required the header, so git did send it.
    expect(server.authorizations).toContain(`Basic ${BASIC}`);
    // Nowhere on disk: the whole checkout, .git included (config, FETCH_HEAD, logs, packs).
    expect(grepTree(dir, TOKEN)).toEqual([]);
    expect(grepTree(dir, BASIC)).toEqual([]);
    const config = await readFile(join(dir, ".git", "config"), "utf8");
    expect(config).not.toContain(TOKEN);
    expect(config).not.toMatch(/url\s*=|extraheader|\[remote/i);
    // Not on any command line other processes could read.
    const argv = await readFile(logger.log, "utf8");
    expect(argv).toContain(`fetch`);
    expect(argv).not.toContain(TOKEN);
    expect(argv).not.toContain(BASIC);
    expect(argv).not.toMatch(/@127\.0\.0\.1/);
    expect(masker.mask(`x ${TOKEN} y`)).not.toContain(TOKEN);
  });

  it("[C12] the sandbox copy has the files and no .git, no credential, no remote URL", async () => {
    const dir = await newDir();
    const { commit } = await fetchRepository({
      cloneUrl: `http://127.0.0.1:${server.port}/acme/widgets.git`,
      ref: { branch: "main" },
      credential: { username: "x-access-token", password: TOKEN },
      dir,
      workDir,
      policy: httpPolicy,
    });
    const copy = await newDir();
    await exportTreeToDirectory(dir, commit, copy, { workDir });
    expect((await readdir(copy)).sort()).toEqual([".secondshift.yaml", "README.md", "src"]);
    expect(grepTree(copy, TOKEN)).toEqual([]);
    expect(grepTree(copy, String(server.port))).toEqual([]);

    const chunks: Buffer[] = [];
    for await (const chunk of await exportTree(dir, commit, { workDir }))
      chunks.push(chunk as Buffer);
    const tar = Buffer.concat(chunks);
    const names = execFileSync("tar", ["-t"], { input: tar })
      .toString()
      .split("\n")
      .filter(Boolean);
    expect(names).toContain("README.md");
    expect(names.some((n) => n.startsWith(".git/") || n === ".git")).toBe(false);
    expect(tar.includes(TOKEN)).toBe(false);
  });

  it("[P03] without the credential the server refuses, and git fails at once instead of prompting", async () => {
    const started = Date.now();
    await expect(
      fetchRepository({
        cloneUrl: `http://127.0.0.1:${server.port}/acme/widgets.git`,
        ref: { branch: "main" },
        dir: await newDir(),
        workDir,
        policy: httpPolicy,
      }),
    ).rejects.toMatchObject({ reason: "GIT_FAILED" });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("git is pinned to the address netguard checked (the host name is never looked up by git)", async () => {
    const lookups: string[] = [];
    const policy: GitRemotePolicy = {
      outbound: outbound({
        resolver: (host) => {
          lookups.push(host);
          return Promise.resolve([{ address: "127.0.0.1", family: 4 }]);
        },
      }),
    };
    // git.secondshift.invalid does not exist in DNS: only the pin can make this work.
    const { commit } = await fetchRepository({
      cloneUrl: `http://git.secondshift.invalid:${server.port}/acme/widgets.git`,
      ref: { branch: "main" },
      credential: { username: "x-access-token", password: TOKEN },
      dir: await newDir(),
      workDir,
      policy,
    });
    expect(commit).toBe(head);
    expect(lookups).toEqual(["git.secondshift.invalid"]);
  });

  it("[C21] refuses before git runs: private addresses, http in production, file:// unless allowed, credentials in the URL", async () => {
    const before = server.authorizations.length;
    const privateHost: GitRemotePolicy = {
      outbound: outbound({
        allowedPrivateCidrs: [],
        resolver: () => Promise.resolve([{ address: "10.0.0.7", family: 4 }]),
      }),
    };
    const attempt = (cloneUrl: string, policy: GitRemotePolicy) =>
      newDir().then((dir) =>
        fetchRepository({ cloneUrl, ref: { branch: "main" }, dir, workDir, policy }),
      );
    await expect(
      attempt(`http://git.internal.test:${server.port}/acme/widgets.git`, privateHost),
    ).rejects.toMatchObject({ reason: "ADDRESS_NOT_PUBLIC" });
    await expect(
      attempt(`http://127.0.0.1:${server.port}/acme/widgets.git`, {
        outbound: outbound({ allowedPrivateCidrs: [] }),
      }),
    ).rejects.toMatchObject({ reason: "ADDRESS_NOT_PUBLIC" });
    await expect(
      attempt(`http://127.0.0.1:${server.port}/acme/widgets.git`, {
        outbound: outbound({ production: true }),
      }),
    ).rejects.toMatchObject({ reason: "HTTPS_REQUIRED" });
    await expect(attempt(repo.fileUrl, httpPolicy)).rejects.toMatchObject({
      reason: "UNSUPPORTED_SCHEME",
    });
    await expect(
      attempt(repo.fileUrl, { outbound: outbound({ production: true }), allowFileRemotes: true }),
    ).rejects.toMatchObject({ reason: "UNSUPPORTED_SCHEME" });
    await expect(attempt("ssh://127.0.0.1/acme/widgets.git", httpPolicy)).rejects.toMatchObject({
      reason: "UNSUPPORTED_SCHEME",
    });
    await expect(attempt("git://127.0.0.1/acme/widgets.git", httpPolicy)).rejects.toMatchObject({
      reason: "UNSUPPORTED_SCHEME",
    });
    await expect(
      attempt(
        `http://x-access-token:${TOKEN}@127.0.0.1:${server.port}/acme/widgets.git`,
        httpPolicy,
      ),
    ).rejects.toMatchObject({ reason: "CREDENTIALS_IN_URL" });
    await expect(
      newDir().then((dir) =>
        fetchRepository({
          cloneUrl: repo.fileUrl,
          ref: { branch: "--upload-pack=touch /tmp/x" },
          dir,
          workDir,
          policy: filePolicy,
        }),
      ),
    ).rejects.toMatchObject({ reason: "INVALID_BRANCH" });
    expect(server.authorizations.length).toBe(before);
  });

  it("fetch and export write only under the folders they are given (nothing via os.tmpdir())", async () => {
    const own = await mkdtemp(join(tmpdir(), "secondshift-fetch-own-"));
    const systemTemp = await mkdtemp(join(tmpdir(), "secondshift-fetch-systemp-"));
    const appeared = new Set<string>();
    const watcher = watch(own, (_event, name) => name && appeared.add(name));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = systemTemp;
    try {
      expect(tmpdir()).toBe(systemTemp);
      const dir = join(own, "checkout");
      const { commit } = await fetchRepository({
        cloneUrl: repo.fileUrl,
        ref: { branch: "main" },
        dir,
        workDir: own,
        policy: filePolicy,
      });
      await exportTreeToDirectory(dir, commit, join(own, "tree"), { workDir: own });
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      watcher.close();
    }
    expect(await readdir(systemTemp)).toEqual([]);
    expect([...appeared].some((name) => name.startsWith("git-home-"))).toBe(true);
    // The git homes are gone; only what the caller asked for is left.
    expect((await readdir(own)).sort()).toEqual(["checkout", "tree"]);
  });

  it("fetches a specific older commit (shallow), and updates a reused checkout cleanly", async () => {
    const dir = await newDir();
    expect(
      (
        await fetchRepository({
          cloneUrl: repo.fileUrl,
          ref: { commit: first },
          dir,
          workDir,
          policy: filePolicy,
        })
      ).commit,
    ).toBe(first);
    expect(show(dir, "README.md")).toBe("first\n");
    // Objects only: no file of the repository is written out (C12: checked before export).
    expect(await readdir(dir)).toEqual([".git"]);
    expect(
      execFileSync("git", ["rev-list", "--count", FETCHED_REF], { cwd: dir }).toString().trim(),
    ).toBe("1");
    // Same directory, now the branch head: the fetched commit is replaced.
    expect(
      (
        await fetchRepository({
          cloneUrl: repo.fileUrl,
          ref: { branch: "main" },
          dir,
          workDir,
          policy: filePolicy,
        })
      ).commit,
    ).toBe(head);
    expect(show(dir, "README.md")).toBe("second\n");
    expect(await readdir(dir)).toEqual([".git"]);
    await expect(
      fetchRepository({
        cloneUrl: repo.fileUrl,
        ref: { commit: "abc" },
        dir,
        workDir,
        policy: filePolicy,
      }),
    ).rejects.toMatchObject({ reason: "INVALID_COMMIT" });
  });
});

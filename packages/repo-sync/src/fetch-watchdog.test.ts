// The fetch's download is bounded while git runs (C12): past maxFetchBytes git is stopped, its
// temporary pack files are removed and nothing of the refused commit can be read; a reused
// folder's earlier objects do not count.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtemp, readdir } from "node:fs/promises";
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { FETCHED_REF, fetchRepository } from "./fetch-repository.ts";
import { fetchByteCap } from "./fetch-watchdog.ts";
import type { GitRemotePolicy } from "./remote.ts";
import {
  createTestRepo,
  startGitHttpServer,
  type GitHttpServer,
  type TestRepo,
} from "./testing/git-server.ts";

const TOKEN = "ghs_plantedWatchdogToken_C12_1a2b3c4d";
const MIB = 1024 * 1024;
const BIG_BYTES = 3 * MIB;
const policy: GitRemotePolicy = {
  outbound: {
    production: false,
    allowHttp: true,
    allowedPrivateHosts: [],
    allowedPrivateCidrs: ["127.0.0.1/32"],
  },
};

let repo: TestRepo;
let server: GitHttpServer;
let slow: ThrottledProxy;
let big: string;
let workDir: string;

/**
 * A TCP relay that passes the server's answers on at ~2 MB/s, so a 3 MB download takes over a
 * second and the watchdog has to stop git part-way (loopback alone finishes before its first look).
 */
interface ThrottledProxy {
  port: number;
  /** Bytes relayed from the server to git so far. */
  relayed(): number;
  close(): Promise<void>;
}

async function startThrottledProxy(target: number): Promise<ThrottledProxy> {
  let relayed = 0;
  const sockets = new Set<Socket>();
  const proxy: Server = createServer((client) => {
    const upstream = connect(target, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.on("data", (chunk: Buffer) => {
      relayed += chunk.length;
      client.write(chunk);
      upstream.pause();
      setTimeout(() => upstream.resume(), chunk.length / 2048); // 2 KB per ms
    });
    upstream.on("end", () => client.end());
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
    client.on("close", () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: (proxy.address() as AddressInfo).port,
    relayed: () => relayed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

const url = (port: number) => `http://127.0.0.1:${port}/acme/widgets.git`;
const newDir = async () =>
  join(await mkdtemp(join(tmpdir(), "secondshift-watchdog-test-")), "checkout");
const fetchInto =
  (dir: string, port: number, ref: { commit: string } | { branch: string }) =>
  (maxFetchBytes: number) =>
    fetchRepository({
      cloneUrl: url(port),
      ref,
      credential: { username: "x-access-token", password: TOKEN },
      dir,
      workDir,
      policy,
      maxFetchBytes,
    });
/** What the fetched ref names, or undefined. */
const fetchedRef = (dir: string) => {
  try {
    return execFileSync("git", ["rev-parse", "--verify", "--quiet", `${FETCHED_REF}^{commit}`], {
      cwd: dir,
    })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
};
const leftovers = async (dir: string) =>
  (await readdir(join(dir, ".git", "objects", "pack"))).filter((name) => name.startsWith("tmp_"));

async function expectRefused(attempt: Promise<unknown>, dir: string) {
  const error: unknown = await attempt.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ code: "PAYLOAD_TOO_LARGE", reason: "REPOSITORY_TOO_LARGE" });
  const message = (error as Error).message;
  expect(message).toMatch(
    /^The repository's download passed \d+\.\d MB, more than this server allows \(1\.0 MB, set by REPOSITORY_MAX_MB\)\./,
  );
  expect(message).toContain("Ask the operator to raise REPOSITORY_MAX_MB");
  expect(message).not.toContain(TOKEN);
  expect(await leftovers(dir)).toEqual([]);
  expect(fetchedRef(dir)).not.toBe(big);
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "secondshift-watchdog-work-"));
  repo = await createTestRepo();
  // Over 100 objects, so git indexes one pack as it arrives (tmp_pack_*) instead of unpacking
  // loose objects; random bytes (written UTF-8-encoded), so the pack stays above 3 MB.
  const files: Record<string, string> = { "README.md": "big\n" };
  for (let i = 0; i < 128; i++)
    files[`data/${i}.bin`] = randomBytes(BIG_BYTES / 128).toString("latin1");
  big = await repo.commit(files, "big");
  server = await startGitHttpServer(join(repo.root, "srv"), {
    username: "x-access-token",
    token: TOKEN,
  });
  slow = await startThrottledProxy(server.port);
});
afterAll(async () => {
  await slow.close();
  await server.close();
});

describe("fetchRepository with maxFetchBytes", () => {
  it("[C12] stops git part-way through a download past the cap, leaving no temporary pack and no fetched commit", async () => {
    const dir = await newDir();
    const started = Date.now();
    await expectRefused(fetchInto(dir, slow.port, { commit: big })(MIB), dir);
    // Stopped, not refused after the whole download: well short of the 3 MB pack.
    expect(slow.relayed()).toBeLessThan(0.8 * BIG_BYTES);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("[C12] refuses a download that finished before the watchdog's first look (checked again when git exits)", async () => {
    const dir = await newDir();
    // The polls never come: only the look after git exits can refuse, after git set the ref.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      await expectRefused(fetchInto(dir, server.port, { commit: big })(MIB), dir);
    } finally {
      vi.useRealTimers();
    }
  });

  it("[C12] fetches the same commit under a generous cap", async () => {
    const dir = await newDir();
    const { commit } = await fetchInto(dir, server.port, { commit: big })(fetchByteCap(4 * MIB));
    expect(commit).toBe(big);
    expect(fetchedRef(dir)).toBe(big);
  });

  it("[C12] a reused folder is not refused for the objects it already had", async () => {
    const dir = await newDir();
    await fetchInto(dir, server.port, { commit: big })(16 * MIB);
    const next = await repo.commit({ "README.md": "small change\n" }, "small");
    const { commit } = await fetchInto(dir, server.port, { branch: "main" })(MIB);
    expect(commit).toBe(next);
  });

  it("[C12] the cap leaves headroom over the operator's limit: 1 MiB, or 5 % of a large one", () => {
    expect(fetchByteCap(10 * MIB)).toBe(11 * MIB);
    expect(fetchByteCap(500 * MIB)).toBe(525 * MIB);
  });
});

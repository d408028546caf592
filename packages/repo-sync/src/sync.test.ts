import { randomBytes, randomUUID } from "node:crypto";
import { watch } from "node:fs";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { createConfigReader } from "@secondshift/config";
import { createKeyring, encryptField } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { syncRepository, type SyncDeps } from "./sync.ts";
import { createTestRepo, startGitHttpServer } from "./testing/git-server.ts";

const TOKEN = "ghs_plantedSyncToken_P03_1a2b3c4d5e6f";
const keyring = createKeyring(new Uint8Array(randomBytes(32)));
const limits = {
  maxTimeoutMinutes: 120,
  maxTokenBudget: 1_000_000,
  defaultTimeoutMinutes: 30,
};
const validConfig = [
  "version: 1",
  "jobs:",
  "  nightly:",
  "    name: Nightly triage",
  "    promptFile: prompts/nightly.md",
  '    schedule: "0 3 * * *"',
  "  weekly:",
  "    name: Weekly report",
  "    prompt: Summarise the week",
  "",
].join("\n");

const sink = createMemorySink();

const test = dbTest
  /** The repository the tests commit to (served from a file URL and over HTTP). */
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("repo", { scope: "file" }, ({}) => createTestRepo())
  .extend("server", { scope: "file" }, async ({ repo }, { onCleanup }) => {
    const server = await startGitHttpServer(join(repo.root, "srv"), {
      username: "x-access-token",
      token: TOKEN,
    });
    onCleanup(() => server.close());
    return server;
  })
  /** A sync's dependencies, working under one work folder of this file's. */
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("deps", { scope: "file" }, async ({}, { onCleanup }) => {
    const workDir = await mkdtemp(join(tmpdir(), "secondshift-sync-work-"));
    const configReader = createConfigReader({ deadlineMs: 10_000 });
    onCleanup(() => configReader.close());
    return (overrides: Partial<SyncDeps> = {}): SyncDeps => {
      const masker = new SecretMasker();
      return {
        keyring,
        configReader,
        policy: {
          outbound: {
            production: false,
            allowHttp: true,
            allowedPrivateHosts: [],
            allowedPrivateCidrs: ["127.0.0.1/32"],
          },
          allowFileRemotes: true,
        },
        limits,
        masker,
        logger: createLogger({ name: "sync-test", destination: sink.stream, masker }),
        workDir,
        ...overrides,
      };
    };
  });

async function workspace(db: Db) {
  const slug = `ws-${randomBytes(4).toString("hex")}`;
  return db.workspace.create({ data: { slug, name: slug } });
}

async function repository(db: Db, workspaceId: string, cloneUrl: string, connectionId?: string) {
  return db.repository.create({
    data: {
      workspaceId,
      fullName: "acme/widgets",
      cloneUrl,
      ...(connectionId ? { connectionId } : {}),
    },
  });
}

async function bearerConnection(db: Db, workspaceId: string, token: string) {
  const id = randomUUID();
  return db.connection.create({
    data: {
      id,
      workspaceId,
      kind: "GITHUB",
      label: `git-${id.slice(0, 8)}`,
      endpoint: "https://api.github.test",
      authType: "BEARER",
      credentialCiphertext: await encryptField(keyring, token, {
        workspaceId,
        table: "Connection",
        rowId: id,
        field: "credentialCiphertext",
      }),
    },
  });
}

describe("syncRepository", () => {
  test("a valid config upserts its jobs (prompt files read from the commit) and records the commit", async ({
    db,
    repo,
    deps,
  }) => {
    const commit = await repo.commit({
      ".secondshift.yaml": validConfig,
      "prompts/nightly.md": "Triage new issues.\n",
    });
    const ws = await workspace(db);
    const r = await repository(db, ws.id, repo.fileUrl);
    await db.repository.update({ where: { id: r.id }, data: { syncRequestedAt: new Date() } });
    const result = await syncRepository(db, deps(), { workspaceId: ws.id, repositoryId: r.id });
    expect(result).toMatchObject({ status: "synced", commit });
    const jobs = await db.job.findMany({ where: { repositoryId: r.id }, orderBy: { key: "asc" } });
    expect(jobs.map((j) => [j.key, j.prompt, j.status, j.configCommit])).toEqual([
      ["nightly", "Triage new issues.\n", "NEEDS_APPROVAL", commit],
      ["weekly", "Summarise the week", "NEEDS_APPROVAL", commit],
    ]);
    expect(await db.repository.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({
      lastSyncedCommit: commit,
      configErrors: null,
      syncError: null,
      // The owner's request is answered: the screens stop polling.
      syncRequestedAt: null,
    });
  });

  test("config errors are stored with file and line, and the jobs keep their last valid state", async ({
    db,
    repo,
    deps,
  }) => {
    const good = await repo.commit({
      ".secondshift.yaml": validConfig,
      "prompts/nightly.md": "Triage new issues.\n",
    });
    const ws = await workspace(db);
    const r = await repository(db, ws.id, repo.fileUrl);
    await syncRepository(db, deps(), { workspaceId: ws.id, repositoryId: r.id });
    const before = await db.job.findMany({
      where: { repositoryId: r.id },
      orderBy: { key: "asc" },
    });

    const bad = await repo.commit({
      ".secondshift.yaml": validConfig.replace(
        "    name: Weekly report\n",
        "    name: Weekly report\n    retries: 3\n",
      ),
      "prompts/nightly.md": "Changed prompt that must not be applied.\n",
    });
    const result = await syncRepository(db, deps(), { workspaceId: ws.id, repositoryId: r.id });
    expect(result.status).toBe("config_errors");
    const stored = await db.repository.findUniqueOrThrow({ where: { id: r.id } });
    expect(stored.lastSyncedCommit).toBe(bad);
    const errors = stored.configErrors as Array<{
      file: string;
      line: number;
      path: string;
      message: string;
    }>;
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      file: ".secondshift.yaml",
      line: 9,
      path: "jobs.weekly.retries",
    });
    expect(errors[0]?.message).toContain('unknown key "retries"');
    const after = await db.job.findMany({ where: { repositoryId: r.id }, orderBy: { key: "asc" } });
    expect(after.map((j) => [j.key, j.prompt, j.configCommit, j.status])).toEqual(
      before.map((j) => [j.key, j.prompt, good, j.status]),
    );

    // Fixed again: errors cleared.
    await repo.commit({ ".secondshift.yaml": validConfig });
    expect(
      (await syncRepository(db, deps(), { workspaceId: ws.id, repositoryId: r.id })).status,
    ).toBe("synced");
    expect(
      (await db.repository.findUniqueOrThrow({ where: { id: r.id } })).configErrors,
    ).toBeNull();
  });

  test("a missing prompt file or a symlinked config is an error on the repository, not a read of the worker's disk", async ({
    db,
    repo,
    deps,
  }) => {
    const ws = await workspace(db);
    const r = await repository(db, ws.id, repo.fileUrl);
    await repo.commit({
      ".secondshift.yaml": validConfig.replace("prompts/nightly.md", "prompts/missing.md"),
    });
    expect(
      await syncRepository(db, deps(), { workspaceId: ws.id, repositoryId: r.id }),
    ).toMatchObject({
      status: "config_errors",
      errors: [
        expect.objectContaining({ file: "prompts/missing.md", path: "jobs.nightly.promptFile" }),
      ],
    });
    await repo.commit({
      "prompts/link.md": { symlink: "/etc/passwd" },
      ".secondshift.yaml": validConfig.replace("prompts/nightly.md", "prompts/link.md"),
    });
    const linked = await syncRepository(db, deps(), { workspaceId: ws.id, repositoryId: r.id });
    expect(linked.status).toBe("config_errors");
    expect(linked.status === "config_errors" ? linked.errors[0]?.message : "").toContain(
      "regular file",
    );
    expect(JSON.stringify(linked)).not.toContain("root:");
    expect(await db.job.count({ where: { repositoryId: r.id } })).toBe(0);
  });

  test("[P03] syncs over HTTP with the connection's credential; a wrong credential fails without showing it", async ({
    db,
    repo,
    server,
    deps,
  }) => {
    const ws = await workspace(db);
    const url = `http://127.0.0.1:${server.port}/acme/widgets.git`;
    const ok = await repository(db, ws.id, url, (await bearerConnection(db, ws.id, TOKEN)).id);
    await repo.commit({ ".secondshift.yaml": validConfig, "prompts/nightly.md": "x\n" });
    expect(
      (await syncRepository(db, deps(), { workspaceId: ws.id, repositoryId: ok.id })).status,
    ).toBe("synced");

    const ws2 = await workspace(db);
    const wrong = "ghs_wrongPlantedToken_0000000000000";
    const bad = await repository(db, ws2.id, url, (await bearerConnection(db, ws2.id, wrong)).id);
    const failing = deps();
    const result = await syncRepository(db, failing, { workspaceId: ws2.id, repositoryId: bad.id });
    expect(result.status).toBe("failed");
    // [P02] The credential was masked during the sync only: it left the masker with it.
    expect(failing.masker!.size).toBe(0);
    const stored = await db.repository.findUniqueOrThrow({ where: { id: bad.id } });
    expect(stored.syncError).toMatch(/git fetch failed/);
    await new Promise((resolve) => setImmediate(resolve));
    for (const text of [JSON.stringify(result), String(stored.syncError), sink.text()]) {
      expect(text).not.toContain(wrong);
      expect(text).not.toContain(TOKEN);
    }
  });

  test("[C12] a repository whose download passes the cap fails its sync, naming the limit", async ({
    db,
    repo,
    deps,
  }) => {
    const ws = await workspace(db);
    const r = await repository(db, ws.id, repo.fileUrl);
    // Random bytes do not compress: the pack is about as large as the file.
    await repo.commit({
      ".secondshift.yaml": validConfig,
      "big.bin": randomBytes(3 * 1024 * 1024).toString("base64"),
    });
    const capped = deps({ maxFetchBytes: 1024 * 1024 });
    const result = await syncRepository(db, capped, { workspaceId: ws.id, repositoryId: r.id });
    expect(result).toMatchObject({ status: "failed", reason: "REPOSITORY_TOO_LARGE" });
    const stored = await db.repository.findUniqueOrThrow({ where: { id: r.id } });
    expect(stored.syncError).toContain("REPOSITORY_MAX_MB");
    expect(await db.job.count({ where: { repositoryId: r.id } })).toBe(0);
  });

  test("a sync writes only under the work folder it is given, and leaves nothing there", async ({
    db,
    repo,
    deps,
  }) => {
    await repo.commit({ ".secondshift.yaml": validConfig, "prompts/nightly.md": "x\n" });
    const ws = await workspace(db);
    const r = await repository(db, ws.id, repo.fileUrl);
    const ownFolder = await mkdtemp(join(tmpdir(), "secondshift-sync-own-"));
    // While the sync runs, the system temp folder is an empty folder of this test's: anything
    // written through os.tmpdir() would land there.
    const systemTemp = await mkdtemp(join(tmpdir(), "secondshift-sync-systemp-"));
    const appeared = new Set<string>();
    const watcher = watch(ownFolder, (_event, name) => name && appeared.add(name));
    const previous = process.env.TMPDIR;
    process.env.TMPDIR = systemTemp;
    try {
      expect(tmpdir()).toBe(systemTemp);
      const result = await syncRepository(db, deps({ workDir: ownFolder }), {
        workspaceId: ws.id,
        repositoryId: r.id,
      });
      expect(result.status).toBe("synced");
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      watcher.close();
    }
    expect(await readdir(systemTemp)).toEqual([]);
    expect([...appeared].some((name) => name.startsWith("sync-"))).toBe(true);
    expect(await readdir(ownFolder)).toEqual([]);
  });

  test("another workspace's repository is not found", async ({ db, repo, deps }) => {
    const ws = await workspace(db);
    const other = await workspace(db);
    const r = await repository(db, ws.id, repo.fileUrl);
    await expect(
      syncRepository(db, deps(), { workspaceId: other.id, repositoryId: r.id }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

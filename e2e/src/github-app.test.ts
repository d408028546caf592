// GitHub App repositories (P03), through the worker exactly as apps/worker wires it: a sync and
// a run's fetch each mint an installation token from a loopback GitHub (the real wire format;
// it verifies the app JWT's RS256 signature with the app's public key), scoped to the one
// repository and to reading contents; git fetches over loopback smart HTTP with it; the token
// is masked for exactly that sync or run, revoked after the fetch, and never stored. A refused
// mint fails with a message naming the step and nothing secret. A run's GitHub tool calls mint
// their own token; by the time the run has ended (succeeded, failed or cancelled) every token
// minted for it has been revoked (DELETE /installation/token) and GitHub refuses it.
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import {
  approveJob,
  cancelRun,
  createConnection,
  runNow,
  setAllowedTools,
} from "@secondshift/domain";
import { listConnectionTools } from "@secondshift/broker";
import { seedTenant, type Tenant } from "@secondshift/domain/testing";
import { startFakeGithubApp, type FakeGithubApp } from "@secondshift/connectors/testing/github-app";
import { MASK } from "@secondshift/logging";
import {
  createTestRepo,
  startGitHttpServer,
  type GitHttpServer,
  type TestRepo,
} from "@secondshift/repo-sync/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { actAs } from "./harness/actor.ts";
import { lastToolResult } from "./harness/model-server.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { waitForRunEnd } from "./harness/run-end.ts";
import { plantedSecrets } from "./harness/seed.ts";
import { seedPlainWorkspace, syncAndApproveAll } from "./harness/seed-plain.ts";
import { syncRepository } from "@secondshift/repo-sync";

const json = (res: ServerResponse, status: number, body: unknown) =>
  void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

const CONFIG = [
  "version: 1",
  "jobs:",
  "  triage:",
  "    name: Triage",
  "    prompt: Triage new issues",
  '    schedule: "0 3 * * *"',
  "",
].join("\n");

let p: Platform;
let app: FakeGithubApp;
let repo: TestRepo;
let server: GitHttpServer;
let started: Promise<void> | undefined;
/** The worker's processors, started once for the runs of this file (a second start would double them). */
const startWorker = () => (started ??= p.worker.start({ repoSync: false }));
/** For each password git sent: was it masked in the worker's logs at that moment? */
const maskedWhileFetching = new Map<string, boolean>();

beforeAll(async () => {
  p = await startPlatform();
  app = await startFakeGithubApp({ appId: 123, installationId: 456 });
  repo = await createTestRepo();
  server = await startGitHttpServer(join(repo.root, "srv"), {
    username: "x-access-token",
    token: (password) => {
      maskedWhileFetching.set(password, p.masker.mask(password) === MASK);
      return app.isLive(password);
    },
  });
});

afterAll(async () => {
  await server?.close();
  await app?.stop();
  await p?.close();
});

const owner = (tenant: Tenant) => ({
  db: p.t.db,
  keyring: p.keyring,
  actor: { userId: tenant.ownerId },
  workspaceId: tenant.workspaceId,
});

/**
 * A workspace with a GitHub App connection made through the owner's use case (the key encrypted
 * at rest) and a repository fetched with it.
 */
async function appRepository(privateKeyPem = app.privateKeyPem) {
  const tenant = await seedTenant(p.t.db, "acme");
  const { id: connectionId } = await createConnection(owner(tenant), {
    kind: "GITHUB",
    label: `app-${randomUUID().slice(0, 8)}`,
    endpoint: app.apiBase,
    authType: "GITHUB_APP",
    credential: privateKeyPem,
    settings: { appId: app.appId, installationId: app.installationId },
  });
  const repository = await p.t.db.repository.create({
    data: {
      workspaceId: tenant.workspaceId,
      fullName: "acme/widgets",
      cloneUrl: `http://127.0.0.1:${server.port}/acme/widgets.git`,
      connectionId,
    },
  });
  return { workspaceId: tenant.workspaceId, repositoryId: repository.id };
}

describe("GitHub App repositories", () => {
  it("[P03] a sync mints a token for that one repository, fetches with it, masks it for the sync only and revokes it", async () => {
    const commit = await repo.commit({ ".secondshift.yaml": CONFIG });
    const target = await appRepository();
    const before = app.mints.length;
    await p.worker.syncOne(target);

    const stored = await p.t.db.repository.findUniqueOrThrow({
      where: { id: target.repositoryId },
    });
    expect(stored.syncError).toBeNull();
    expect(stored.lastSyncedCommit).toBe(commit);
    expect(await p.t.db.job.count({ where: { repositoryId: target.repositoryId } })).toBe(1);

    const mints = app.mints.slice(before);
    expect(mints).toHaveLength(1);
    const mint = mints[0]!;
    // The JWT verified with the app's public key; iat 60 s back, at most 10 minutes long.
    const now = Math.floor(Date.now() / 1000);
    expect(mint.claims).not.toBeNull();
    expect(mint.claims!.iss).toBe("123");
    expect(mint.claims!.exp - mint.claims!.iat).toBeLessThanOrEqual(600);
    expect(now - mint.claims!.iat).toBeGreaterThanOrEqual(55);
    expect(mint.body).toEqual({ repositories: ["widgets"], permissions: { contents: "read" } });
    expect(mint.headers.accept).toBe("application/vnd.github+json");
    expect(mint.headers["x-github-api-version"]).toBe("2022-11-28");

    const token = mint.token!;
    expect(maskedWhileFetching.get(token)).toBe(true);
    expect(app.revoked).toContain(token);
    expect(p.masker.mask(token)).toBe(token); // the sync's scope closed
    expect(p.logs()).not.toContain(token);
    expect(JSON.stringify(stored)).not.toContain(token);
  });

  it("[P03] a run's fetch mints its own token, masked for that run and not after", async () => {
    const commit = await repo.commit({ ".secondshift.yaml": CONFIG, "src/app.ts": "run me\n" });
    const target = await appRepository();
    const before = app.mints.length;
    const runId = randomUUID();
    const runSecrets = p.masker.scope(runId); // as the executor opens it for each run
    const checkout = await p.worker.executorDeps.source.checkout({ runId, ...target, commit });
    try {
      expect(checkout.commit).toBe(commit);
      const tar = Buffer.concat(await (await checkout.archive()).toArray());
      expect(tar.toString("latin1")).toContain("src/app.ts");
      expect(tar.toString("latin1")).toContain("run me\n");
      const mint = app.mints.slice(before)[0]!;
      expect(mint.body.repositories).toEqual(["widgets"]);
      const token = mint.token!;
      expect(maskedWhileFetching.get(token)).toBe(true);
      expect(app.revoked).toContain(token);
      // Still the run's: a line written during the run is masked.
      p.logger.info({ note: `during ${token}` }, "a line during the run");
      expect(p.masker.mask(token)).toBe(MASK);
      runSecrets.close();
      expect(p.masker.mask(token)).toBe(token);
      await new Promise((resolve) => setImmediate(resolve));
      expect(p.logs()).toContain(`during ${MASK}`);
      expect(p.logs()).not.toContain(token);
    } finally {
      runSecrets.close();
      await checkout.cleanup();
    }
  });

  it("[P03] a whole run of a GitHub App repository: the sandbox gets the files; the run's token is masked while it runs and not after", async () => {
    const commit = await repo.commit({
      ".secondshift.yaml": CONFIG,
      "README.md": "# fetched with an installation token\n",
    });
    const ws = await seedPlainWorkspace(p, { planted: plantedSecrets(), repoDir: repo.bare });
    // The seeded workspace's repository, fetched over HTTP with a GitHub App connection.
    const { id: connectionId } = await createConnection(actAs(p, ws.workspaceId, ws.ownerId), {
      kind: "GITHUB",
      label: "github-app",
      endpoint: app.apiBase,
      authType: "GITHUB_APP",
      credential: app.privateKeyPem,
      settings: { appId: app.appId, installationId: app.installationId },
    });
    await p.t.db.repository.update({
      where: { id: ws.repositoryId },
      data: {
        fullName: "acme/widgets",
        cloneUrl: `http://127.0.0.1:${server.port}/acme/widgets.git`,
        connectionId,
      },
    });
    expect(await syncAndApproveAll(p, ws)).toBe(1);
    const job = await p.t.db.job.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });

    const before = app.mints.length;
    let maskedDuringRun: boolean | null = null;
    p.model.script([
      () => ({ tool: "read_file", input: { path: "README.md" } }),
      (req) => {
        expect(lastToolResult(req)).toContain("fetched with an installation token");
        const token = app.mints.slice(before)[0]?.token ?? "";
        maskedDuringRun = token !== "" && p.masker.mask(token) === MASK;
        return { text: "Read it." };
      },
    ]);
    await startWorker();
    const { runId } = await runNow(actAs(p, ws.workspaceId, ws.ownerId), { jobId: job.id });
    const run = await waitForRunEnd(p, runId);
    expect(run, JSON.stringify(run)).toMatchObject({ status: "SUCCEEDED", commitSha: commit });

    const mints = app.mints.slice(before);
    expect(mints).toHaveLength(1);
    const token = mints[0]!.token!;
    expect(maskedDuringRun).toBe(true);
    expect(app.revoked).toContain(token);
    // The run's scope closes with the run (its last step, just after the final status is written).
    await vi.waitUntil(() => p.masker.mask(token) === token, { timeout: 10_000 });
    expect(p.logs()).not.toContain(token);
    const events = await p.t.db.runEvent.findMany({ where: { runId } });
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it("[P03] a refused mint fails the sync and the run's fetch with a message naming the step, and nothing secret", async () => {
    // A key GitHub does not know: the fake verifies the signature and answers 401.
    const { generateKeyPairSync } = await import("node:crypto");
    const otherKey = generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const wrongKey = await appRepository(otherKey);
    await p.worker.syncOne(wrongKey);
    const stored = await p.t.db.repository.findUniqueOrThrow({
      where: { id: wrongKey.repositoryId },
    });
    expect(stored.syncError).toMatch(
      /^GitHub refused an installation token for app 123, installation 456 \(HTTP 401\)/,
    );

    // The app is not installed on the repository (any more): 404.
    const notInstalled = await appRepository();
    app.refuseWith = 404;
    try {
      const error: unknown = await p.worker.executorDeps.source
        .checkout({ runId: randomUUID(), ...notInstalled, commit: null })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ reason: "INSTALLATION_TOKEN_REFUSED" });
      expect((error as Error).message).toMatch(
        /^GitHub refused an installation token for app 123, installation 456 \(HTTP 404\)/,
      );
      const jwts = app.mints.map((m) => String(m.headers.authorization).replace("Bearer ", ""));
      const keyLine = app.privateKeyPem.split("\n")[1]!;
      for (const text of [String(stored.syncError), (error as Error).message, p.logs()]) {
        for (const jwt of jwts) expect(text).not.toContain(jwt);
        expect(text).not.toContain(keyLine);
        expect(text).not.toContain(otherKey.split("\n")[1]!);
      }
    } finally {
      app.refuseWith = null;
    }
  });

  it("[P03] every installation token minted for a run (its fetch, its GitHub tool calls) is revoked by the time the run has ended, succeeded, failed or cancelled, and GitHub refuses it after", async () => {
    const tool = (key: string) =>
      [
        `  ${key}:`,
        `    name: Job ${key}`,
        "    prompt: Look at issue 1",
        "    tools:",
        "      github:",
        "        required: true",
        "        tools: [get_issue]",
      ].join("\n");
    await repo.commit({
      ".secondshift.yaml": [
        "version: 1",
        "jobs:",
        tool("ok"),
        tool("fails"),
        tool("cancels"),
        "",
      ].join("\n"),
    });
    const ws = await seedPlainWorkspace(p, { planted: plantedSecrets(), repoDir: repo.bare });
    const owner = actAs(p, ws.workspaceId, ws.ownerId);
    const { id: connectionId } = await createConnection(owner, {
      kind: "GITHUB",
      label: "github-app",
      endpoint: app.apiBase,
      authType: "GITHUB_APP",
      credential: app.privateKeyPem,
      settings: { appId: app.appId, installationId: app.installationId },
    });
    await listConnectionTools({
      ...owner,
      keyring: p.keyring,
      connectors: p.worker.connectors,
      connectionId,
      timeoutMs: 20_000,
    });
    await setAllowedTools(owner, { connectionId, tools: ["get_issue"] });
    await p.t.db.repository.update({
      where: { id: ws.repositoryId },
      data: {
        fullName: "acme/widgets",
        cloneUrl: `http://127.0.0.1:${server.port}/acme/widgets.git`,
        connectionId,
      },
    });
    const synced = await syncRepository(p.t.db, p.worker.syncDeps, {
      workspaceId: ws.workspaceId,
      repositoryId: ws.repositoryId,
    });
    expect(synced.status).toBe("synced");
    const jobs = await p.t.db.job.findMany({ where: { workspaceId: ws.workspaceId } });
    for (const job of jobs)
      await approveJob(owner, {
        jobId: job.id,
        requestHash: job.requestHash,
        bindings: { "GITHUB:": connectionId },
      });
    const jobId = (key: string) => jobs.find((j) => j.key === key)!.id;

    // GitHub's side of a tool call: the installation's permissions (asked with the app JWT), and
    // the issue, served only for a live installation token.
    app.rest.route(`GET /app/installations/${app.installationId}`, (_req, res) =>
      json(res, 200, {
        id: app.installationId,
        permissions: { contents: "read", issues: "read", metadata: "read" },
      }),
    );
    const issue = `/repos/acme/widgets/issues/1`;
    app.rest.route(`GET ${issue}`, (req, res) => {
      const token = (req.headers.authorization ?? "").replace(/^(Bearer|token) /, "");
      if (!app.isLive(token)) return json(res, 401, { message: "Bad credentials" });
      json(res, 200, { number: 1, title: "Crash on start", state: "open" });
    });
    await startWorker();

    let runId = "";
    const ended = {
      ok: () => ({ text: "Issue 1 is a crash." }),
      fails: () => ({ status: 400 }),
      cancels: async () => {
        await cancelRun(owner, { runId });
        return { hang: true as const };
      },
    };
    for (const [key, status] of [
      ["ok", "SUCCEEDED"],
      ["fails", "FAILED"],
      ["cancels", "CANCELLED"],
    ] as const) {
      const before = app.mints.length;
      let liveDuringRun: string[] = [];
      p.model.script([
        (req) => ({
          tool: (req.body.tools ?? []).map((t) => t.name).find((n) => n.endsWith("get_issue"))!,
          input: { issue_number: 1 },
        }),
        (req) => {
          expect(lastToolResult(req)).toContain("Crash on start");
          liveDuringRun = app.mints
            .slice(before)
            .flatMap((m) => (m.token && app.isLive(m.token) ? [m.token] : []));
          return ended[key]();
        },
      ]);
      ({ runId } = await runNow(owner, { jobId: jobId(key) }));
      const run = await waitForRunEnd(p, runId);
      expect(run.status, `${key}: ${JSON.stringify(run)}`).toBe(status);

      // Two tokens for this run: the fetch's (contents only) and the tool call's (issues too).
      const mints = app.mints.slice(before);
      expect(mints.map((m) => m.body.permissions)).toEqual([
        { contents: "read" },
        { contents: "read", issues: "read", metadata: "read" },
      ]);
      const tokens = mints.map((m) => m.token!);
      // The tool call's token was still live while the run went on; the fetch's was not.
      expect(liveDuringRun).toEqual([tokens[1]]);
      for (const token of tokens) {
        // DELETE /installation/token was called with it, and GitHub no longer takes it.
        expect(app.revoked).toContain(token);
        expect(app.isLive(token)).toBe(false);
        const after = await fetch(`${app.apiBase}${issue}`, {
          headers: { authorization: `Bearer ${token}` },
        });
        expect(after.status).toBe(401);
      }
    }
  });
});

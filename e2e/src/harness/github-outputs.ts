// A workspace whose repository is fetched and written through a loopback GitHub App: the test
// repository served over git HTTP (the App's installation tokens as passwords), its last
// commit mirrored as `main` on the fake's Git Data API, a GitHub App connection, a sync, and
// every job approved with the given outputs (the same for all, or chosen per job key). For the
// results and events end-to-end tests (issues #24, #25).
import { join } from "node:path";
import { approveJob, createConnection, type ApproveJobInput } from "@secondshift/domain";
import { startFakeGithubApp, type FakeGithubApp } from "@secondshift/connectors/testing/github-app";
import {
  startFakeGithubPulls,
  type FakeGithubPulls,
} from "@secondshift/connectors/testing/github-pulls";
import { syncRepository } from "@secondshift/repo-sync";
import {
  createTestRepo,
  startGitHttpServer,
  type GitHttpServer,
  type TestRepo,
} from "@secondshift/repo-sync/testing";
import { expect } from "vitest";
import { actAs } from "./actor.ts";
import type { Platform } from "./platform.ts";
import { plantedSecrets } from "./seed.ts";
import { seedPlainWorkspace } from "./seed-plain.ts";

type Outputs = NonNullable<ApproveJobInput["outputs"]>;

export interface GithubOutputs {
  app: FakeGithubApp;
  github: FakeGithubPulls;
  repo: TestRepo;
  server: GitHttpServer;
  close(): Promise<void>;
}

export async function startGithubOutputs(): Promise<GithubOutputs> {
  const app = await startFakeGithubApp({ appId: 321, installationId: 654 });
  const github = startFakeGithubPulls(app, { owner: "acme", repo: "widgets" });
  const repo = await createTestRepo();
  const server = await startGitHttpServer(join(repo.root, "srv"), {
    username: "x-access-token",
    token: (password) => app.isLive(password),
  });
  return {
    app,
    github,
    repo,
    server,
    close: async () => {
      await server.close();
      await app.stop();
    },
  };
}

/** A job requesting one pull request (draft, `dependencies`, 6 files, 50 lines). */
export const pullRequestConfig = (jobKey: string) =>
  [
    "version: 1",
    "jobs:",
    `  ${jobKey}:`,
    "    name: Weekly dependency update",
    "    prompt: Update the dependencies and open a draft pull request.",
    "    outputs:",
    "      pullRequest: { labels: [dependencies], maxFiles: 6, maxChangedLines: 50 }",
    "",
  ].join("\n");

export async function githubAppWorkspace(
  p: Platform,
  g: GithubOutputs,
  files: Record<string, string>,
  outputs: Outputs | ((jobKey: string) => Outputs),
) {
  const commit = await g.repo.commit(files);
  g.github.seedBase(files, "main", commit);
  const ws = await seedPlainWorkspace(p, { planted: plantedSecrets(), repoDir: g.repo.bare });
  const owner = actAs(p, ws.workspaceId, ws.ownerId);
  const { id: connectionId } = await createConnection(owner, {
    kind: "GITHUB",
    label: "github-app",
    endpoint: g.app.apiBase,
    authType: "GITHUB_APP",
    credential: g.app.privateKeyPem,
    settings: { appId: g.app.appId, installationId: g.app.installationId },
  });
  await p.t.db.repository.update({
    where: { id: ws.repositoryId },
    data: {
      fullName: "acme/widgets",
      cloneUrl: `http://127.0.0.1:${g.server.port}/acme/widgets.git`,
      connectionId,
    },
  });
  const synced = await syncRepository(p.t.db, p.worker.syncDeps, ws);
  expect(synced.status).toBe("synced");
  // Every job the config declares is approved, each with the outputs chosen for its key.
  const jobs = await p.t.db.job.findMany({
    where: { workspaceId: ws.workspaceId },
    orderBy: { key: "asc" },
  });
  for (const made of jobs) {
    const chosen = typeof outputs === "function" ? outputs(made.key) : outputs;
    await approveJob(owner, { jobId: made.id, requestHash: made.requestHash, outputs: chosen });
  }
  return { ws, owner, job: jobs[0]!, jobs, commit, connectionId };
}

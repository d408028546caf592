// Results that leave safely (issue #24 phase (a)), through the worker exactly as apps/worker
// wires it, against a loopback GitHub speaking the real wire format (App installation tokens,
// issues and issue comments): a run proposes a comment, an issue and a comment carrying a
// credential; nothing reaches GitHub while it runs; at finalize the credential is refused, the
// issue (granted "apply automatically") is applied, the comment (held) waits for the owner's
// approval; each write uses a token minted after the run ended, for issues: write on that one
// repository, revoked after; the token appears nowhere the run or the model could see.
import { join } from "node:path";
import { approveJob, approveOutput, createConnection, runNow } from "@secondshift/domain";
import { startFakeGithubApp, type FakeGithubApp } from "@secondshift/connectors/testing/github-app";
import {
  startFakeGithubIssues,
  type FakeGithubIssues,
} from "@secondshift/connectors/testing/github-issues";
import { syncRepository } from "@secondshift/repo-sync";
import {
  createTestRepo,
  startGitHttpServer,
  type GitHttpServer,
  type TestRepo,
} from "@secondshift/repo-sync/testing";
import { outputMarker } from "@secondshift/vocabulary";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actAs } from "./harness/actor.ts";
import { lastToolResult } from "./harness/model-server.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { waitForRunEnd } from "./harness/run-end.ts";
import { plantedSecrets } from "./harness/seed.ts";
import { waitFor } from "./harness/scenario.ts";
import { seedPlainWorkspace } from "./harness/seed-plain.ts";

const CONFIG = [
  "version: 1",
  "jobs:",
  "  deps:",
  "    name: Weekly dependency check",
  "    prompt: Check the dependencies and report.",
  "    outputs:",
  "      comments: { max: 2 }",
  '      issues: { max: 1, titlePrefix: "[deps] ", labels: [dependencies] }',
  "",
].join("\n");

// A credential format (secretlint's GitHub token rule), not a value the run knows.
const LEAKED = `ghp_${"A1b2C3d4E5".repeat(3)}abcdef`;

let p: Platform;
let app: FakeGithubApp;
let github: FakeGithubIssues;
let repo: TestRepo;
let server: GitHttpServer;

beforeAll(async () => {
  p = await startPlatform();
  app = await startFakeGithubApp({ appId: 321, installationId: 654 });
  github = startFakeGithubIssues(app, { owner: "acme", repo: "widgets" });
  repo = await createTestRepo();
  server = await startGitHttpServer(join(repo.root, "srv"), {
    username: "x-access-token",
    token: (password) => app.isLive(password),
  });
});

afterAll(async () => {
  await server?.close();
  await app?.stop();
  await p?.close();
});

async function appWorkspace() {
  await repo.commit({ ".secondshift.yaml": CONFIG, "package.json": '{"name":"widgets"}\n' });
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
  await p.t.db.repository.update({
    where: { id: ws.repositoryId },
    data: {
      fullName: "acme/widgets",
      cloneUrl: `http://127.0.0.1:${server.port}/acme/widgets.git`,
      connectionId,
    },
  });
  const synced = await syncRepository(p.t.db, p.worker.syncDeps, ws);
  expect(synced.status).toBe("synced");
  const job = await p.t.db.job.findFirstOrThrow({ where: { workspaceId: ws.workspaceId } });
  return { ws, owner, job };
}

describe("results that leave safely", () => {
  it("[O01][O02][O03][O05][O06] a run's proposals are checked at its end and written once, after it, with a token minted then and revoked", async () => {
    const { ws, owner, job } = await appWorkspace();
    await approveJob(owner, {
      jobId: job.id,
      requestHash: job.requestHash,
      outputs: { comment: { mode: "hold" }, issue: { mode: "auto" } },
    });
    const tracker = github.seedIssue("Upgrade tracker");
    const runStart = app.mints.length;
    let offered: string[] = [];
    let writesDuringRun = -1;
    p.model.script([
      (req) => {
        offered = (req.body.tools ?? []).map((t) => t.name);
        return {
          tool: "secondshift_propose_comment",
          input: { number: tracker.number, body: "Three packages are out of date." },
        };
      },
      (req) => {
        expect(lastToolResult(req)).toMatch(/nothing has been posted/i);
        return {
          tool: "secondshift_propose_issue",
          input: { title: "Update three packages", body: "left-pad, is-odd and chalk." },
        };
      },
      () => ({
        tool: "secondshift_propose_comment",
        input: { number: tracker.number, body: `Use this token: ${LEAKED}` },
      }),
      () => {
        writesDuringRun = github.creates().length;
        return { text: "Proposed a comment and an issue." };
      },
    ]);
    await p.worker.start({ repoSync: false });
    const { runId } = await runNow(owner, { jobId: job.id });
    const run = await waitForRunEnd(p, runId);
    expect(run.status, JSON.stringify(run)).toBe("SUCCEEDED");
    const finishedAt = run.finishedAt!.getTime();

    // [O02] Only the granted kinds' tools were offered; [O01] nothing was written during the run.
    expect(offered).toEqual(
      expect.arrayContaining(["secondshift_propose_comment", "secondshift_propose_issue"]),
    );
    expect(writesDuringRun).toBe(0);

    // The issue was applied automatically; the held comment waits; the credential was refused.
    const outputs = async () =>
      p.t.db.runOutput.findMany({ where: { runId }, orderBy: { seq: "asc" } });
    await waitFor("the issue applied", async () =>
      (await outputs()).find((o) => o.kind === "issue" && o.state === "APPLIED"),
    );
    const [comment, issue, leaked] = await outputs();
    expect(comment!.state).toBe("HELD");
    expect(leaked!.state).toBe("REFUSED");
    expect(leaked!.reason).toBeTruthy();
    expect(leaked!.reason).not.toContain(LEAKED); // [O05]
    expect(issue!.resultUrl).toContain("/acme/widgets/issues/");
    const created = github.issues.find((i) => i.body?.includes(outputMarker(issue!.id)));
    expect(created).toMatchObject({
      title: "[deps] Update three packages",
      labels: ["dependencies"],
    });

    // An owner approves the held comment: it is written once, on the tracker.
    await approveOutput(owner, { outputId: comment!.id });
    await waitFor("the comment applied", async () =>
      (await outputs()).find((o) => o.id === comment!.id && o.state === "APPLIED"),
    );
    expect(tracker.comments.map((c) => c.body)).toEqual([
      expect.stringContaining("Three packages are out of date."),
    ]);
    expect(github.creates()).toHaveLength(2);
    expect(github.issues.flatMap((i) => i.comments).some((c) => c.body.includes(LEAKED))).toBe(
      false,
    );
    expect(github.issues.some((i) => i.body?.includes(LEAKED))).toBe(false);

    // [O03] Each write's token: minted after the run ended, issues: write on widgets only,
    // revoked after; it reached no place the run, the model or the audit log could see.
    const writeMints = app.mints.slice(runStart).filter((m) => m.body.permissions?.issues);
    expect(writeMints).toHaveLength(2);
    for (const mint of writeMints) {
      expect(mint.body).toEqual({ repositories: ["widgets"], permissions: { issues: "write" } });
      expect(mint.claims!.iat * 1000 + 60_000).toBeGreaterThanOrEqual(finishedAt - 1000);
      expect(app.revoked).toContain(mint.token);
    }
    for (const call of github.creates())
      expect(writeMints.map((m) => m.token)).toContain(call.token);
    const events = await p.t.db.runEvent.findMany({ where: { runId } });
    const audit = await p.t.db.auditEvent.findMany({ where: { workspaceId: ws.workspaceId } });
    const seen = [
      JSON.stringify(events),
      JSON.stringify(audit),
      JSON.stringify(p.model.requests),
      JSON.stringify(await outputs()),
      p.logs(),
    ];
    for (const mint of writeMints) for (const text of seen) expect(text).not.toContain(mint.token);
    const actions = audit.filter((a) => a.action.startsWith("output.")).map((a) => a.action);
    expect(actions.sort()).toEqual(
      [
        "output.applied",
        "output.applied",
        "output.approved",
        "output.held",
        "output.proposed",
        "output.proposed",
        "output.proposed",
        "output.refused",
      ].sort(),
    );
  }, 240_000);
});

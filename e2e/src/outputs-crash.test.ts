// A worker killed (SIGKILL) in the middle of applying a pull request (issue #24): a worker in
// its own process runs the job, the pull request is held, the owner approves it, and while that
// worker talks to the loopback GitHub (every answer slowed down) it is killed the moment it has
// asked for the branch — GitHub makes the branch, the worker never hears. The output is left
// APPLYING; the next worker's queue hands the stalled job over and it finishes the apply: the
// output ends APPLIED with exactly one branch (the dead worker's, reused: no second commit, no
// force update) and exactly one pull request.
import { approveOutput, runNow } from "@secondshift/domain";
import type { FakePullsCall } from "@secondshift/connectors/testing/github-pulls";
import { outputMarker } from "@secondshift/vocabulary";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  githubAppWorkspace,
  pullRequestConfig,
  startGithubOutputs,
  type GithubOutputs,
} from "./harness/github-outputs.ts";
import { startPlatform, type Platform } from "./harness/platform.ts";
import { waitForRunEnd } from "./harness/run-end.ts";
import { waitFor } from "./harness/scenario.ts";
import { spawnWorkerProcess, type WorkerProcess } from "./harness/worker-process.ts";

const PACKAGE = '{"name":"widgets","version":"1.0.0"}\n';
const UPDATED = '{"name":"widgets","version":"1.1.0"}\n';

let p: Platform;
let g: GithubOutputs;
let child: WorkerProcess | undefined;

beforeAll(async () => {
  // The next worker (this process) is started only after the kill.
  p = await startPlatform();
  g = await startGithubOutputs();
});

afterAll(async () => {
  if (child && child.child.exitCode === null && child.child.signalCode === null)
    child.child.kill("SIGKILL");
  await g?.close();
  await p?.close();
});

const isCall = (call: FakePullsCall, method: string, path: string) =>
  call.method === method && call.path === `/repos/acme/widgets/${path}`;
const count = (method: string, path: string) =>
  g.github.calls.filter((c) => isCall(c, method, path)).length;

describe("scenario: worker killed while applying an output", () => {
  it(
    "[O03][O06] a pull request whose worker was killed after creating its branch ends APPLIED with one branch and one pull request, and both attempts' tokens revoked",
    { timeout: 300_000 },
    async () => {
      const files = { ".secondshift.yaml": pullRequestConfig("deps"), "package.json": PACKAGE };
      const { owner, job, commit } = await githubAppWorkspace(p, g, files, {
        pull_request: { mode: "hold" },
      });

      // The worker that will die: its own process on the same database, Redis prefix, gateway.
      child = spawnWorkerProcess({
        databaseUrl: p.t.url,
        redisUrl: p.settings.redis.url,
        redisPrefix: p.settings.redis.prefix!,
        gatewayUrl: p.gatewayUrl,
        keyB64: p.encryptionKeyB64,
        image: p.settings.sandbox.image,
        overrides: { concurrency: 1 },
      });
      await child.started;

      p.model.script([
        () => ({
          tool: "shell",
          input: { command: `printf '%s\\n' '${UPDATED.trim()}' > package.json` },
        }),
        () => ({
          tool: "secondshift_propose_pull_request",
          input: { title: "Update widgets to 1.1.0", body: "The weekly dependency update." },
        }),
        () => ({ text: "Proposed a pull request." }),
      ]);
      const { runId } = await runNow(owner, { jobId: job.id });
      const run = await waitForRunEnd(p, runId);
      expect(run.status, JSON.stringify(run)).toBe("SUCCEEDED");
      const output = await waitFor("the pull request held", () =>
        p.t.db.runOutput.findFirst({ where: { runId, state: "HELD" } }),
      );
      const { headBranch } = output.payload as { headBranch: string };
      const headRef = `refs/heads/${headBranch}`;
      expect(g.github.creates()).toHaveLength(0);

      // Every GitHub answer takes 400 ms: the apply takes seconds. The worker is killed as
      // GitHub receives its branch creation (recorded, then made; the answer goes nowhere).
      g.github.latencyMs = 400;
      const dying = child;
      let killedAt: number | undefined;
      g.github.onCall = (call) => {
        if (killedAt === undefined && isCall(call, "POST", "git/refs")) {
          killedAt = g.github.calls.length;
          dying.child.kill("SIGKILL");
        }
      };
      const applyingSeen = waitFor("the output APPLYING", () =>
        p.t.db.runOutput.findFirst({ where: { id: output.id, state: "APPLYING" } }),
      );
      await approveOutput(owner, { outputId: output.id });
      expect(await applyingSeen).toMatchObject({ applyAttempts: 1 });
      expect(await dying.exited).toMatchObject({ signal: "SIGKILL" });
      g.github.onCall = undefined;

      // Left behind: the branch on the run's commit, no pull request, the output APPLYING.
      expect(killedAt).toBeDefined();
      const branchTip = g.github.refs.get(headRef);
      expect(branchTip).toBeDefined();
      expect(g.github.commits.get(branchTip!)!.parents).toEqual([commit]);
      expect(g.github.pulls).toHaveLength(0);
      expect(g.github.calls.slice(killedAt)).toEqual([]);
      const left = await p.t.db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
      expect(left).toMatchObject({ state: "APPLYING", resultUrl: null });

      // The next worker: its queue finds the dead worker's job stalled and applies it again
      // (BullMQ's stalled-job check: the outputs queue's worker keeps the 30 s lock and check
      // interval, so this takes up to about a minute).
      g.github.latencyMs = 0;
      await p.worker.start({ repoSync: false });
      const applied = await waitFor(
        "the output APPLIED by the next worker",
        () => p.t.db.runOutput.findFirst({ where: { id: output.id, state: "APPLIED" } }),
        150_000,
      );

      // [O06] exactly one pull request, from the one branch, which was reused (not re-made,
      // never force-updated); one commit made by the App.
      expect(g.github.pulls).toHaveLength(1);
      const [pull] = g.github.pulls;
      expect(pull).toMatchObject({
        title: "Update widgets to 1.1.0",
        body: `The weekly dependency update.\n\n${outputMarker(output.id)}`,
        head: headBranch,
        base: "main",
        headSha: branchTip,
        labels: ["dependencies"],
      });
      expect(applied).toMatchObject({
        resultUrl: `https://github.test/acme/widgets/pull/${pull!.number}`,
        applyAttempts: 2,
      });
      expect(count("POST", "pulls")).toBe(1);
      expect(count("POST", "git/refs")).toBe(1);
      expect(count("POST", "git/commits")).toBe(1);
      expect(g.github.calls.filter((c) => c.method === "PATCH")).toHaveLength(0);
      expect([...g.github.refs.keys()].sort()).toEqual(["refs/heads/main", headRef].sort());
      expect(g.github.refs.get(headRef)).toBe(branchTip);
      expect(g.github.treeFiles(branchTip!)["package.json"]).toEqual({
        mode: "100644",
        content: UPDATED,
      });
      const audit = await p.t.db.auditEvent.findMany({
        where: { targetId: output.id },
        orderBy: { createdAt: "asc" },
      });
      expect(audit.map((a) => [a.action, a.outcome])).toEqual([
        ["output.proposed", "proposed"],
        ["output.held", "held"],
        ["output.approved", null],
        ["output.applied", "created"],
      ]);
      // [O03] Two write tokens, one per attempt: the killed worker's, kept encrypted on the
      // output's row, was revoked by the next attempt before it minted its own, revoked after.
      const writeMints = g.app.mints.filter((m) => m.body.permissions?.pull_requests);
      expect(writeMints).toHaveLength(2);
      expect(g.app.revoked).toEqual(
        expect.arrayContaining([writeMints[0]!.token, writeMints[1]!.token]),
      );
      const row = await p.t.db.runOutput.findFirstOrThrow({ where: { kind: "pull_request" } });
      expect(row.writeTokenCiphertext).toBeNull();
    },
  );
});

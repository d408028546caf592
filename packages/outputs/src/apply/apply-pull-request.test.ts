// Applying a pull-request output against the loopback GitHub fakes, on a real database: one
// branch, one commit of exactly the run's files on the run's commit, one pull request with the
// marker (O06, also across drops and with two workers), a token for contents and pull requests
// on the job's repository only, revoked after (O03); a branch someone else wrote on is never
// force-pushed, and the head branch is never the base branch; a base branch that moved onto the
// pull request's files since the run holds it again for the owner (O04).
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Prisma } from "@secondshift/db";
import { outputMarker, type PullRequestFile } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import {
  connectGithubApp,
  seedOutput,
  startApplyFixture,
  type ApplyFixture,
} from "../testing/apply-fixture.ts";
import { applyOutput } from "./apply-output.ts";
import { readPullRequest } from "./payload.ts";

const test = dbTest.extend("fx", async ({ db, seed }, { onCleanup }) => {
  const fx = await startApplyFixture(db);
  onCleanup(() => fx.close());
  await connectGithubApp(db, seed, fx.app);
  return fx;
});

const BASE_FILES = {
  "README.md": "# app\n",
  "src/index.ts": "export const a = 1;\n",
  "src/old.ts": "export const old = true;\n",
  "scripts/run.sh": "echo run\n",
};

function file(
  path: string,
  status: PullRequestFile["status"],
  mode: PullRequestFile["mode"],
  content: string | null,
): PullRequestFile {
  return { path, status, mode, content, additions: 1, deletions: 0, patch: `@@ ${path} @@\n` };
}

const CHANGES: PullRequestFile[] = [
  file("src/index.ts", "modified", "100644", "export const a = 2;\n"),
  file("src/new.ts", "added", "100644", "export const b = 3;\n"),
  file("src/old.ts", "deleted", null, null),
  file("scripts/run.sh", "modified", "100755", "echo run\n"),
  file("latest", "added", "120000", "src/index.ts"),
];

function pullRequest(fx: ApplyFixture, overrides: Record<string, unknown> = {}) {
  const baseSha = fx.pulls.seedBase(BASE_FILES);
  const payload = {
    title: "Fix the counter",
    body: "The counter was off by one.",
    draft: true,
    labels: ["secondshift"],
    baseSha,
    baseBranch: "main",
    headBranch: "secondshift/triage-run1",
    files: CHANGES,
    ...overrides,
  };
  return { kind: "pull_request" as const, payload: payload as unknown as Prisma.InputJsonObject };
}

const HEAD_REF = "refs/heads/secondshift/triage-run1";

function expectAllRevoked(fx: ApplyFixture) {
  const minted = fx.app.mints.map((m) => m.token).filter((t) => t !== null);
  expect(minted.length).toBeGreaterThan(0);
  for (const token of minted) expect(fx.app.isLive(token)).toBe(false);
}

function expectOnePullAndNoForce(fx: ApplyFixture) {
  expect(fx.pulls.pulls).toHaveLength(1);
  expect(
    fx.pulls.calls.filter((c) => c.path.endsWith("/pulls") && c.method === "POST"),
  ).toHaveLength(1);
  expect(fx.pulls.calls.filter((c) => c.method === "PATCH")).toHaveLength(0);
}

describe("applyOutput, pull requests", () => {
  test("[O06] a pull request is opened once: its branch, one commit on the run's commit, the marker, labels", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, pullRequest(fx));
    const result = await applyOutput(fx.deps, { outputId: output.id });
    expect(result).toEqual({
      status: "applied",
      created: true,
      resultUrl: "https://github.test/acme/app/pull/1",
    });
    const [pull] = fx.pulls.pulls;
    expect(pull).toMatchObject({
      title: "Fix the counter",
      body: `The counter was off by one.\n\n${outputMarker(output.id)}`,
      head: "secondshift/triage-run1",
      base: "main",
      draft: true,
      labels: ["secondshift"],
      login: "secondshift[bot]",
    });
    const head = fx.pulls.refs.get(HEAD_REF)!;
    expect(pull!.headSha).toBe(head);
    const commit = fx.pulls.commits.get(head)!;
    expect(commit.parents).toEqual([fx.pulls.refs.get("refs/heads/main")]);
    expect(commit.message).toBe("Fix the counter\n\nThe counter was off by one.");
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row).toMatchObject({
      state: "APPLIED",
      resultUrl: "https://github.test/acme/app/pull/1",
    });
    // Nine calls: pulls lookup, base branch (not moved: no compare), base commit, tree, ref
    // lookup, commit, ref, pull request, labels.
    expect(
      fx.pulls.calls.map((c) => `${c.method} ${c.path.replace("/repos/acme/app/", "")}`),
    ).toEqual([
      "GET pulls",
      "GET git/ref/heads/main",
      `GET git/commits/${commit.parents[0]}`,
      "POST git/trees",
      "GET git/ref/heads/secondshift/triage-run1",
      "POST git/commits",
      "POST git/refs",
      "POST pulls",
      "POST issues/1/labels",
    ]);
    expect(fx.pulls.calls[0]!.query.get("head")).toBe("acme:secondshift/triage-run1");
    expect(fx.pulls.calls[0]!.query.get("state")).toBe("all");
    // Applying again (a duplicate queue job) does nothing.
    expect(await applyOutput(fx.deps, { outputId: output.id })).toEqual({ status: "skipped" });
    expectOnePullAndNoForce(fx);
  });

  test("[O03] the token asks for only contents and pull requests: write on the job's repository and is revoked after", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, pullRequest(fx));
    await applyOutput(fx.deps, { outputId: output.id });
    expect(fx.app.mints).toHaveLength(1);
    expect(fx.app.mints[0]!.body).toEqual({
      repositories: ["app"],
      permissions: { contents: "write", pull_requests: "write" },
    });
    expectAllRevoked(fx);
    expect(new Set(fx.pulls.calls.map((c) => c.token))).toEqual(new Set([fx.app.mints[0]!.token]));
    expect(fx.github.calls).toHaveLength(0);
  });

  test("the commit's tree is the base with exactly the run's changes: added, modified, deleted, executable, symlink", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, pullRequest(fx));
    await applyOutput(fx.deps, { outputId: output.id });
    expect(fx.pulls.treeFiles(fx.pulls.refs.get(HEAD_REF)!)).toEqual({
      "README.md": { mode: "100644", content: "# app\n" },
      "src/index.ts": { mode: "100644", content: "export const a = 2;\n" },
      "src/new.ts": { mode: "100644", content: "export const b = 3;\n" },
      "scripts/run.sh": { mode: "100755", content: "echo run\n" },
      latest: { mode: "120000", content: "src/index.ts" },
    });
    // Contents inline in the one tree call; no blob calls; deletions as `sha: null`.
    const tree = fx.pulls.calls.find((c) => c.path.endsWith("/git/trees"))!.body as {
      base_tree: string;
      tree: Array<Record<string, unknown>>;
    };
    expect(tree.tree).toContainEqual({
      path: "src/old.ts",
      mode: "100644",
      type: "blob",
      sha: null,
    });
    expect(tree.tree).toContainEqual({
      path: "latest",
      mode: "120000",
      type: "blob",
      content: "src/index.ts",
    });
    expect(fx.pulls.calls.some((c) => c.path.includes("/git/blobs"))).toBe(false);
  });

  test("the commit names no author and no committer: GitHub makes and signs it as the App", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, pullRequest(fx));
    await applyOutput(fx.deps, { outputId: output.id });
    const sent = fx.pulls.calls.find(
      (c) => c.path.endsWith("/git/commits") && c.method === "POST",
    )!;
    expect(Object.keys(sent.body as object).sort()).toEqual(["message", "parents", "tree"]);
    const commit = fx.pulls.commits.get(fx.pulls.refs.get(HEAD_REF)!)!;
    expect(commit.sentAuthor).toBeUndefined();
    expect(commit.sentCommitter).toBeUndefined();
  });

  test("[O06] a drop after the branch is created: the retry reuses that commit and opens one pull request", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, pullRequest(fx));
    fx.pulls.dropAfterCreate = "ref";
    const crash = await applyOutput(fx.deps, { outputId: output.id }).catch((e: unknown) => e);
    expect(crash).toMatchObject({ reason: "OUTPUT_APPLY_RETRY" });
    const first = fx.pulls.refs.get(HEAD_REF);
    expect(first).toBeDefined();
    expect(fx.pulls.pulls).toHaveLength(0);
    fx.pulls.dropAfterCreate = false;
    const retry = await applyOutput(fx.deps, { outputId: output.id });
    expect(retry).toMatchObject({ status: "applied", created: true });
    expect(fx.pulls.refs.get(HEAD_REF)).toBe(first);
    expect(fx.pulls.pulls[0]!.headSha).toBe(first);
    // One commit made: the retry saw its own commit on the branch and made none.
    expect(
      fx.pulls.calls.filter((c) => c.path.endsWith("/git/commits") && c.method === "POST"),
    ).toHaveLength(1);
    expectOnePullAndNoForce(fx);
    expectAllRevoked(fx);
  });

  test("[O06] a drop after the pull request is created: the retry finds it by its marker and adds the labels", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, pullRequest(fx));
    fx.pulls.dropAfterCreate = "pull";
    await expect(applyOutput(fx.deps, { outputId: output.id })).rejects.toMatchObject({
      reason: "OUTPUT_APPLY_RETRY",
    });
    expect(fx.pulls.pulls).toHaveLength(1);
    expect(fx.pulls.pulls[0]!.labels).toEqual([]);
    fx.pulls.dropAfterCreate = false;
    const calls = fx.pulls.calls.length;
    const retry = await applyOutput(fx.deps, { outputId: output.id });
    expect(retry).toEqual({
      status: "applied",
      created: false,
      resultUrl: "https://github.test/acme/app/pull/1",
    });
    expect(fx.pulls.calls.slice(calls).map((c) => `${c.method} ${c.path}`)).toEqual([
      "GET /repos/acme/app/pulls",
      "POST /repos/acme/app/issues/1/labels",
    ]);
    expect(fx.pulls.pulls[0]!.labels).toEqual(["secondshift"]);
    expectOnePullAndNoForce(fx);
    const audit = await db.auditEvent.findMany({ where: { targetId: output.id } });
    expect(audit.map((a) => a.outcome)).toEqual(["found"]);
  });

  test("[O06] two workers applying one pull-request output at once open one pull request", async ({
    db,
    seed,
    fx,
  }) => {
    fx.pulls.latencyMs = 30;
    const output = await seedOutput(db, seed, pullRequest(fx));
    const results = await Promise.all([
      applyOutput(fx.deps, { outputId: output.id }),
      applyOutput(fx.deps, { outputId: output.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["applied", "skipped"]);
    expectOnePullAndNoForce(fx);
    expect([...fx.pulls.refs.keys()].sort()).toEqual(["refs/heads/main", HEAD_REF]);
  });

  test("[O06] a branch holding someone else's commit fails the output with the reason; it is not force-pushed", async ({
    db,
    seed,
    fx,
  }) => {
    const seeded = pullRequest(fx);
    const baseSha = fx.pulls.refs.get("refs/heads/main")!;
    const foreign = fx.pulls.seedCommit(baseSha, { "src/index.ts": "someone else's\n" });
    fx.pulls.refs.set(HEAD_REF, foreign);
    const output = await seedOutput(db, seed, seeded);
    const result = await applyOutput(fx.deps, { outputId: output.id });
    expect(result).toMatchObject({ status: "failed" });
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row.state).toBe("FAILED");
    expect(row.reason).toContain(
      "the branch secondshift/triage-run1 exists and holds commits SecondShift did not make; it is never force-pushed",
    );
    expect(fx.pulls.refs.get(HEAD_REF)).toBe(foreign);
    expect(fx.pulls.pulls).toHaveLength(0);
    expect(fx.pulls.creates().map((c) => c.path)).toEqual(["/repos/acme/app/git/trees"]);
    const audit = await db.auditEvent.findMany({ where: { targetId: output.id } });
    expect(audit.map((a) => [a.action, a.outcome])).toEqual([["output.failed", "branch_exists"]]);
    expectAllRevoked(fx);
  });

  test("[O06] a head branch equal to the base branch, or not under secondshift/, fails as bad_payload without any call", async ({
    db,
    seed,
    fx,
  }) => {
    for (const overrides of [
      { headBranch: "main" },
      { headBranch: "secondshift/x", baseBranch: "secondshift/x" },
      { headBranch: "feature/x" },
    ]) {
      const output = await seedOutput(db, seed, pullRequest(fx, overrides));
      expect(await applyOutput(fx.deps, { outputId: output.id })).toMatchObject({
        status: "failed",
        reason: "The stored proposal is not a valid pull request; it is not applied.",
      });
      const audit = await db.auditEvent.findMany({ where: { targetId: output.id } });
      expect(audit.map((a) => a.outcome)).toEqual(["bad_payload"]);
    }
    expect(fx.app.mints).toHaveLength(0);
    expect(fx.pulls.calls).toHaveLength(0);
  });

  test("a 403 fails the output with the permissions the App needs, token revoked", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, pullRequest(fx));
    fx.pulls.failNext(403, { method: "POST" });
    const result = await applyOutput(fx.deps, { outputId: output.id });
    expect(result).toMatchObject({ status: "failed" });
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row.reason).toMatch(
      /^GitHub refused the pull request from secondshift\/triage-run1 in acme\/app \(HTTP 403: /,
    );
    expect(row.reason).toContain('"Contents: Read and write" and "Pull requests: Read and write"');
    expectAllRevoked(fx);
  });
});

const callsOf = (fx: ApplyFixture, from = 0) =>
  fx.pulls.calls.slice(from).map((c) => `${c.method} ${c.path.replace("/repos/acme/app/", "")}`);

describe("applyOutput, a pull request whose base branch moved since the run", () => {
  const HELD_AGAIN =
    "Held again: main changed src/index.ts since the run; review the pull request again against the new base.";

  async function approve(db: ApplyFixture["deps"]["db"], outputId: string) {
    // As approveOutput does (its queue job is this test's applyOutput call).
    await db.runOutput.update({
      where: { id: outputId, state: "HELD" },
      data: { state: "APPROVED", decidedAt: new Date() },
    });
  }

  test("[O04] a base that changed a file the pull request changes holds it again, nothing created; the owner's approval then opens it once [O06]", async ({
    db,
    seed,
    fx,
  }) => {
    const seeded = pullRequest(fx);
    const runCommit = fx.pulls.refs.get("refs/heads/main")!;
    const moved = fx.pulls.advanceBranch({ "src/index.ts": "export const a = 10;\n" });
    const output = await seedOutput(db, seed, { ...seeded, state: "APPROVED" });

    const result = await applyOutput(fx.deps, { outputId: output.id });
    expect(result).toEqual({ status: "held", reason: HELD_AGAIN });
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row).toMatchObject({ state: "HELD", reason: HELD_AGAIN, resultUrl: null });
    expect(row.decidedAt).toBeNull();
    expect(row.payload).toEqual({ ...seeded.payload, baseCheckedSha: moved });
    // Read and compared, nothing created: no tree, commit, branch or pull request.
    expect(callsOf(fx)).toEqual([
      "GET pulls",
      "GET git/ref/heads/main",
      `GET compare/${runCommit}...${moved}`,
    ]);
    expect(fx.pulls.creates()).toEqual([]);
    expect([...fx.pulls.refs.keys()]).toEqual(["refs/heads/main"]);
    const audit = await db.auditEvent.findMany({ where: { targetId: output.id } });
    expect(audit.map((a) => [a.action, a.actorType, a.outcome])).toEqual([
      ["output.held", "SYSTEM", "base_moved"],
    ]);
    expectAllRevoked(fx);

    // The owner approves again; the base has not moved since: it is opened, on the run's commit.
    await approve(db, output.id);
    const calls = fx.pulls.calls.length;
    const applied = await applyOutput(fx.deps, { outputId: output.id });
    expect(applied).toMatchObject({ status: "applied", created: true });
    expect(callsOf(fx, calls).slice(0, 3)).toEqual([
      "GET pulls",
      "GET git/ref/heads/main",
      `GET git/commits/${runCommit}`,
    ]);
    const head = fx.pulls.refs.get(HEAD_REF)!;
    expect(fx.pulls.commits.get(head)!.parents).toEqual([runCommit]);
    expect(fx.pulls.refs.get("refs/heads/main")).toBe(moved);
    expectOnePullAndNoForce(fx);
    const after = await db.auditEvent.findMany({
      where: { targetId: output.id },
      orderBy: { createdAt: "asc" },
    });
    expect(after.map((a) => [a.action, a.outcome])).toEqual([
      ["output.held", "base_moved"],
      ["output.applied", "created"],
    ]);
  });

  test("[O06] a base that moved elsewhere is GitHub's to merge: the pull request is opened once on the run's commit", async ({
    db,
    seed,
    fx,
  }) => {
    const seeded = pullRequest(fx);
    const runCommit = fx.pulls.refs.get("refs/heads/main")!;
    const moved = fx.pulls.advanceBranch({ "README.md": "# app, renamed\n", "docs/a.md": "a\n" });
    const output = await seedOutput(db, seed, seeded);
    const result = await applyOutput(fx.deps, { outputId: output.id });
    expect(result).toMatchObject({ status: "applied", created: true });
    expect(callsOf(fx).slice(0, 4)).toEqual([
      "GET pulls",
      "GET git/ref/heads/main",
      `GET compare/${runCommit}...${moved}`,
      `GET git/commits/${runCommit}`,
    ]);
    const [pull] = fx.pulls.pulls;
    expect(fx.pulls.commits.get(pull!.headSha)!.parents).toEqual([runCommit]);
    expect(fx.pulls.treeFiles(pull!.headSha)["README.md"]).toEqual({
      mode: "100644",
      content: "# app\n",
    });
    expectOnePullAndNoForce(fx);
  });

  test("[O04] after the approval the base moved again: onto the same files it is held again against the new head, elsewhere it is opened", async ({
    db,
    seed,
    fx,
  }) => {
    const seeded = pullRequest(fx);
    const first = fx.pulls.advanceBranch({ "src/index.ts": "export const a = 10;\n" });
    const output = await seedOutput(db, seed, { ...seeded, state: "APPROVED" });
    expect(await applyOutput(fx.deps, { outputId: output.id })).toMatchObject({ status: "held" });

    await approve(db, output.id);
    const second = fx.pulls.advanceBranch({
      "src/new.ts": "export const b = 30;\n",
      "scripts/run.sh": "echo run fast\n",
    });
    let calls = fx.pulls.calls.length;
    expect(await applyOutput(fx.deps, { outputId: output.id })).toEqual({
      status: "held",
      reason:
        "Held again: main changed src/new.ts and scripts/run.sh since the run; review the pull request again against the new base.",
    });
    // Compared from the head the owner saw, not from the run's commit.
    expect(callsOf(fx, calls)).toContain(`GET compare/${first}...${second}`);
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row.payload).toMatchObject({ baseCheckedSha: second });

    await approve(db, output.id);
    const third = fx.pulls.advanceBranch({ "README.md": "# app 2\n" });
    calls = fx.pulls.calls.length;
    expect(await applyOutput(fx.deps, { outputId: output.id })).toMatchObject({
      status: "applied",
      created: true,
    });
    expect(callsOf(fx, calls)).toContain(`GET compare/${second}...${third}`);
    expectOnePullAndNoForce(fx);
    const audit = await db.auditEvent.findMany({
      where: { targetId: output.id },
      orderBy: { createdAt: "asc" },
    });
    expect(audit.map((a) => a.outcome)).toEqual(["base_moved", "base_moved", "created"]);
  });

  test("a base branch that no longer exists fails the output as GitHub's 404, nothing created", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, pullRequest(fx));
    fx.pulls.refs.delete("refs/heads/main");
    expect(await applyOutput(fx.deps, { outputId: output.id })).toMatchObject({
      status: "failed",
    });
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row.reason).toMatch(/^GitHub refused the pull request .* \(HTTP 404: Not Found\)\. /);
    expect(fx.pulls.creates()).toEqual([]);
  });
});

describe("readPullRequest", () => {
  const valid = {
    title: "T",
    body: "",
    draft: false,
    labels: [],
    baseSha: "a".repeat(40),
    baseBranch: "main",
    headBranch: "secondshift/triage-1",
    files: [file("a.txt", "added", "100644", "a")],
  };

  test("a valid payload reads back as itself", () => {
    expect(readPullRequest(valid)).toEqual(valid);
    expect(readPullRequest({ ...valid, baseSha: "b".repeat(64) })).not.toBeNull();
  });

  test("a path outside the repository or into .git, or mode and content that disagree, is refused", () => {
    const bad: Array<Record<string, unknown>> = [
      { files: [file("../x", "added", "100644", "a")] },
      { files: [file("/etc/passwd", "added", "100644", "a")] },
      { files: [file("a/../../x", "added", "100644", "a")] },
      { files: [file(".git/config", "modified", "100644", "a")] },
      { files: [file("sub/.GIT/hooks/pre-commit", "added", "100755", "a")] },
      { files: [file("a//b", "added", "100644", "a")] },
      { files: [file("a/", "added", "100644", "a")] },
      { files: [file("./a", "added", "100644", "a")] },
      { files: [file("a\u0000b", "added", "100644", "a")] },
      { files: [file("x", "deleted", "100644", null)] },
      { files: [file("x", "deleted", null, "")] },
      { files: [file("x", "added", null, "a")] },
      { files: [file("x", "added", "100644", null)] },
      { files: [{ ...file("x", "added", "100644", "a"), mode: "040000" }] },
      { files: [file("x", "added", "120000", "")] },
      { files: [file("x", "added", "100644", "a"), file("x", "modified", "100644", "b")] },
      { files: [] },
      { baseSha: "A".repeat(40) },
      { baseSha: "a".repeat(39) },
      { headBranch: "secondshift/" },
      { headBranch: "secondshift/a..b" },
      { headBranch: "secondshift/a b" },
      { headBranch: "secondshift/x.lock" },
      { baseBranch: "" },
      { baseBranch: "-main" },
      { title: "" },
      { draft: "yes" },
      { labels: [1] },
    ];
    for (const overrides of bad) expect(readPullRequest({ ...valid, ...overrides })).toBeNull();
  });
});

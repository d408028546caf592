// Applying outputs against the loopback GitHub fakes, on a real database: one object per output
// with its marker (O06, also across a crash and with two workers), a token with only
// `issues: write` for the job's repository, minted after the run ended and revoked (O03).
import { dbTest } from "@secondshift/db/testing/vitest";
import { outputMarker } from "@secondshift/vocabulary";
import { githubAppInstallation } from "@secondshift/repo-sync";
import { describe, expect } from "vitest";
import {
  connectGithubApp,
  seedOutput,
  startApplyFixture,
  type ApplyFixture,
} from "../testing/apply-fixture.ts";
import { applyOutput } from "./apply-output.ts";
import { expireHeldOutputs } from "./expire.ts";
import { writeTokenStore } from "./write-token.ts";

const test = dbTest.extend("fx", async ({ db, seed }, { onCleanup }) => {
  const fx = await startApplyFixture(db);
  onCleanup(() => fx.close());
  await connectGithubApp(db, seed, fx.app);
  return fx;
});

const comment = (number: number, body = "Looks like a flaky test.") => ({
  kind: "comment" as const,
  payload: { number, body },
});
const issue = {
  kind: "issue" as const,
  payload: { title: "[bot] Flaky test", body: "It fails.", labels: ["triage"] },
};

function expectOnlyIssuesWriteForApp(fx: ApplyFixture) {
  for (const mint of fx.app.mints)
    expect(mint.body).toEqual({ repositories: ["app"], permissions: { issues: "write" } });
}

function expectAllRevoked(fx: ApplyFixture) {
  const minted = fx.app.mints.map((m) => m.token).filter((t) => t !== null);
  expect(minted.length).toBeGreaterThan(0);
  for (const token of minted) expect(fx.app.isLive(token)).toBe(false);
}

describe("applyOutput", () => {
  test("[O06] a comment is created once, with the marker, and recorded with its URL and audit", async ({
    db,
    seed,
    fx,
  }) => {
    const target = fx.github.seedIssue("Tests fail on main");
    const output = await seedOutput(db, seed, comment(target.number));
    const result = await applyOutput(fx.deps, { outputId: output.id });
    expect(result).toMatchObject({ status: "applied", created: true });
    expect(target.comments).toHaveLength(1);
    expect(target.comments[0]!.body).toBe(`Looks like a flaky test.\n\n${outputMarker(output.id)}`);
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row).toMatchObject({ state: "APPLIED", applyAttempts: 1, reason: null });
    expect(row.resultUrl).toMatch(
      /^https:\/\/github\.test\/acme\/app\/issues\/1#issuecomment-\d+$/,
    );
    expect(row.appliedAt).not.toBeNull();
    const audit = await db.auditEvent.findMany({ where: { targetId: output.id } });
    expect(audit.map((a) => [a.action, a.actorType, a.outcome])).toEqual([
      ["output.applied", "SYSTEM", "created"],
    ]);
    // Applying again (a duplicate queue job) does nothing.
    expect(await applyOutput(fx.deps, { outputId: output.id })).toEqual({ status: "skipped" });
    expect(fx.github.creates()).toHaveLength(1);
    // The marker lookup went first, since the proposal.
    expect(fx.github.calls[0]).toMatchObject({
      method: "GET",
      path: "/repos/acme/app/issues/1/comments",
    });
    expect(fx.github.calls[0]!.query.get("since")).not.toBeNull();
  });

  test("[O03] the token asks for only issues: write on the job's repository and is revoked after", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, issue);
    await applyOutput(fx.deps, { outputId: output.id });
    expect(fx.app.mints).toHaveLength(1);
    expectOnlyIssuesWriteForApp(fx);
    expectAllRevoked(fx);
    // Every GitHub call carried that one token.
    expect(new Set(fx.github.calls.map((c) => c.token))).toEqual(new Set([fx.app.mints[0]!.token]));
  });

  test("an issue is created once with its title, labels and the marker", async ({
    db,
    seed,
    fx,
  }) => {
    fx.github.seedIssue("Someone else's issue");
    const output = await seedOutput(db, seed, issue);
    const result = await applyOutput(fx.deps, { outputId: output.id });
    expect(result).toMatchObject({
      status: "applied",
      resultUrl: "https://github.test/acme/app/issues/2",
    });
    const created = fx.github.issues.filter((i) => i.login === "secondshift[bot]");
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      title: "[bot] Flaky test",
      labels: ["triage"],
      body: `It fails.\n\n${outputMarker(output.id)}`,
    });
    expect(fx.github.calls[0]).toMatchObject({ method: "GET", path: "/repos/acme/app/issues" });
    expect(fx.github.calls[0]!.query.get("state")).toBe("all");
  });

  test("[O06] a retry after a crash between GitHub's create and the APPLIED write creates nothing more", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, issue);
    fx.github.dropAfterCreate = true;
    const crash = await applyOutput(fx.deps, { outputId: output.id }).catch((e: unknown) => e);
    expect(crash).toMatchObject({ reason: "OUTPUT_APPLY_RETRY" });
    expect(fx.github.issues).toHaveLength(1);
    expect(await db.runOutput.findUniqueOrThrow({ where: { id: output.id } })).toMatchObject({
      state: "APPLYING",
    });
    fx.github.dropAfterCreate = false;
    const retry = await applyOutput(fx.deps, { outputId: output.id });
    expect(retry).toEqual({
      status: "applied",
      created: false,
      resultUrl: "https://github.test/acme/app/issues/1",
    });
    expect(fx.github.issues).toHaveLength(1);
    expect(fx.github.creates()).toHaveLength(1);
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row).toMatchObject({ state: "APPLIED", applyAttempts: 2 });
    const audit = await db.auditEvent.findMany({ where: { targetId: output.id } });
    expect(audit.map((a) => a.outcome)).toEqual(["found"]);
    expectAllRevoked(fx);
  });

  test("[O06] two workers applying one output at once create one object", async ({
    db,
    seed,
    fx,
  }) => {
    const target = fx.github.seedIssue("Tests fail on main");
    fx.github.latencyMs = 50;
    const output = await seedOutput(db, seed, comment(target.number));
    const results = await Promise.all([
      applyOutput(fx.deps, { outputId: output.id }),
      applyOutput(fx.deps, { outputId: output.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(["applied", "skipped"]);
    expect(target.comments).toHaveLength(1);
    expect(fx.github.creates()).toHaveLength(1);
  });

  test("[O03] an output of a run still running is refused and no token is minted", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, { ...issue, runStatus: "RUNNING" });
    const error = await applyOutput(fx.deps, { outputId: output.id }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONFLICT", reason: "RUN_NOT_FINISHED" });
    expect(fx.app.mints).toHaveLength(0);
    expect(await db.runOutput.findUniqueOrThrow({ where: { id: output.id } })).toMatchObject({
      state: "READY",
      applyAttempts: 0,
    });
  });

  test("held, rejected and applied outputs are not applied", async ({ db, seed, fx }) => {
    for (const state of ["HELD", "REJECTED", "PROPOSED", "APPLIED"] as const) {
      const output = await seedOutput(db, seed, { ...issue, state });
      expect(await applyOutput(fx.deps, { outputId: output.id })).toEqual({ status: "skipped" });
    }
    expect(fx.app.mints).toHaveLength(0);
    expect(fx.github.calls).toHaveLength(0);
  });

  test("a 422 from GitHub fails the output with a reason for the owner, audited, token revoked", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, issue);
    fx.github.failNext(422, { method: "POST" });
    const result = await applyOutput(fx.deps, { outputId: output.id });
    expect(result).toMatchObject({ status: "failed" });
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row.state).toBe("FAILED");
    expect(row.reason).toMatch(
      /^GitHub refused the new issue in acme\/app \(HTTP 422: Validation Failed\)\. /,
    );
    expect(row.reason).not.toContain(fx.app.mints[0]!.token!);
    const audit = await db.auditEvent.findMany({ where: { targetId: output.id } });
    expect(audit.map((a) => [a.action, a.outcome])).toEqual([["output.failed", "github_422"]]);
    expectAllRevoked(fx);
  });

  test("a 503 or a 429 leaves the output APPLYING and throws so the queue retries", async ({
    db,
    seed,
    fx,
  }) => {
    const output = await seedOutput(db, seed, issue);
    for (const status of [503, 429]) {
      fx.github.failNext(status);
      const error = await applyOutput(fx.deps, { outputId: output.id }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "SERVICE_UNAVAILABLE", reason: "OUTPUT_APPLY_RETRY" });
      expect((error as Error).message).toContain(`HTTP ${status}`);
      expect(await db.runOutput.findUniqueOrThrow({ where: { id: output.id } })).toMatchObject({
        state: "APPLYING",
      });
    }
    expectAllRevoked(fx);
    expect(await applyOutput(fx.deps, { outputId: output.id })).toMatchObject({
      status: "applied",
    });
    expect(fx.github.issues).toHaveLength(1);
  });

  test("a repository without a GitHub App connection fails the output with what to do", async ({
    db,
    seed,
    fx,
  }) => {
    await db.repository.update({ where: { id: seed.repositoryId }, data: { connectionId: null } });
    const output = await seedOutput(db, seed, issue);
    expect(await applyOutput(fx.deps, { outputId: output.id })).toMatchObject({
      status: "failed",
      reason: expect.stringMatching(/GitHub App connection/) as unknown,
    });
    expect(fx.app.mints).toHaveLength(0);
  });
});

describe("expireHeldOutputs", () => {
  test("held outputs older than the hold limit expire, audited; newer and decided ones stay", async ({
    db,
    seed,
  }) => {
    const day = 86_400_000;
    const now = new Date();
    const old = await seedOutput(db, seed, {
      ...issue,
      state: "HELD",
      proposedAt: new Date(now.getTime() - 15 * day),
    });
    const fresh = await seedOutput(db, seed, {
      ...issue,
      state: "HELD",
      proposedAt: new Date(now.getTime() - 13 * day),
    });
    const approved = await seedOutput(db, seed, {
      ...issue,
      state: "APPROVED",
      proposedAt: new Date(now.getTime() - 30 * day),
    });
    expect(await expireHeldOutputs(db, { holdDays: 14, now })).toBe(1);
    const states = await db.runOutput.findMany({
      where: { id: { in: [old.id, fresh.id, approved.id] } },
    });
    expect(Object.fromEntries(states.map((s) => [s.id, s.state]))).toEqual({
      [old.id]: "EXPIRED",
      [fresh.id]: "HELD",
      [approved.id]: "APPROVED",
    });
    const audit = await db.auditEvent.findMany({ where: { targetId: old.id } });
    expect(audit.map((a) => [a.action, a.actorType])).toEqual([["output.expired", "SYSTEM"]]);
    expect(await expireHeldOutputs(db, { holdDays: 14, now })).toBe(0);
  });

  test("[O03] a token a killed attempt left behind is revoked by the next attempt; none is kept after", async ({
    db,
    seed,
    fx,
  }) => {
    const target = fx.github.seedIssue("Tests fail on main");
    const output = await seedOutput(db, seed, comment(target.number));
    // What a worker killed mid-attempt leaves: its live token, kept encrypted on the row.
    const connection = await db.connection.findFirstOrThrow({
      where: { workspaceId: seed.workspaceId, authType: "GITHUB_APP" },
    });
    const installation = await githubAppInstallation(fx.deps.keyring, connection, "acme/app", {
      issues: "write",
    });
    const left = await fx.deps.mintToken(installation);
    await writeTokenStore(db, fx.deps.keyring, output).keep(left.token);
    const stored = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(Buffer.from(stored.writeTokenCiphertext!).toString("latin1")).not.toContain(left.token);

    expect(await applyOutput(fx.deps, { outputId: output.id })).toMatchObject({
      status: "applied",
    });
    expect(fx.app.revoked).toContain(left.token);
    expectAllRevoked(fx);
    const row = await db.runOutput.findUniqueOrThrow({ where: { id: output.id } });
    expect(row.writeTokenCiphertext).toBeNull();
  });
});

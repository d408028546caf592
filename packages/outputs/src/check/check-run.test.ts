import { createRun, seedJob, seedTenant } from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { Db, Prisma } from "@secondshift/db";
import type { GrantedOutputs } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { checkRunOutputs, holdOutputs, UNCHECKED_REASON } from "./check-run.ts";

const PLANTED = "planted-run-secret-4c7e1a";
const GITHUB_TOKEN = `ghp_${"a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"}`;
// The masker scope of the run: it knows the planted value.
const known = { mask: (text: string) => text.replaceAll(PLANTED, "[redacted]") };

const granted = (mode: "hold" | "auto"): GrantedOutputs => ({
  comment: { max: 2, target: "any", mode },
  issue: { max: 1, titlePrefix: "[bot] ", labels: ["triage"], mode },
});

const test = dbTest.extend("newRun", { scope: "file" }, async ({ db }) => {
  const tenant = await seedTenant(db);
  return async () => {
    const jobId = await seedJob(db, tenant);
    const id = await createRun(db, tenant.workspaceId, jobId);
    const propose = (seq: number, kind: string, payload: Record<string, unknown>) =>
      db.runOutput.create({
        data: {
          workspaceId: tenant.workspaceId,
          runId: id,
          jobId,
          seq,
          kind,
          payload: payload as Prisma.InputJsonValue,
        },
      });
    return { id, workspaceId: tenant.workspaceId, propose };
  };
});

const outputsOf = (db: Db, runId: string) =>
  db.runOutput.findMany({ where: { runId }, orderBy: { seq: "asc" } });

describe("finalize checks", () => {
  test("[O05] a secret known to the run and a GitHub token format are refused without repeating the value", async ({
    db,
    newRun,
  }) => {
    const run = await newRun();
    await run.propose(0, "comment", { number: 3, body: `the key is ${PLANTED}` });
    await run.propose(1, "issue", {
      title: "[bot] Leak",
      body: `use ${GITHUB_TOKEN}`,
      labels: ["triage"],
    });
    await run.propose(2, "comment", { number: 3, body: "All clean." });
    const checked = await checkRunOutputs(
      { db, known },
      { ...run, succeeded: true, status: "SUCCEEDED" },
      granted("auto"),
    );
    expect(checked.map((c) => c.state)).toEqual(["REFUSED", "REFUSED", "READY"]);
    const [comment, issue] = await outputsOf(db, run.id);
    expect(comment?.reason).toContain("a secret value known to this run");
    expect(issue?.reason).toContain("secretlint-rule-github");
    for (const row of [comment, issue]) {
      expect(row?.reason).not.toContain(PLANTED);
      expect(row?.reason).not.toContain(GITHUB_TOKEN.slice(4, 20));
      expect(row?.checkedAt).not.toBeNull();
    }
    const audits = await db.auditEvent.findMany({ where: { actorId: run.id } });
    expect(audits.map((a) => a.action).sort()).toEqual(["output.refused", "output.refused"]);
  });

  test("[O02] limits are checked again: over the count, a wrong prefix or an ungranted label is refused", async ({
    db,
    newRun,
  }) => {
    const run = await newRun();
    await run.propose(0, "issue", { title: "No prefix", body: "b", labels: ["triage"] });
    await run.propose(1, "issue", { title: "[bot] Second", body: "b", labels: ["triage"] });
    await run.propose(2, "comment", { number: 1, body: "b" });
    const other = await newRun();
    await other.propose(0, "issue", { title: "[bot] x", body: "b", labels: ["admin"] });
    const ok = { succeeded: true, status: "SUCCEEDED" };
    await checkRunOutputs({ db, known }, { ...run, ...ok }, granted("auto"));
    await checkRunOutputs({ db, known }, { ...other, ...ok }, granted("auto"));
    const rows = [...(await outputsOf(db, run.id)), ...(await outputsOf(db, other.id))];
    expect(rows.map((r) => [r.state, r.reason])).toEqual([
      ["REFUSED", expect.stringContaining("must start with the granted prefix") as unknown],
      ["REFUSED", "Refused: this run may propose at most 1 issue."],
      ["READY", null],
      ["REFUSED", expect.stringContaining("labels") as unknown],
    ]);
    // Nothing granted: a stored proposal of the kind is refused.
    const third = await newRun();
    await third.propose(0, "comment", { number: 1, body: "b" });
    await checkRunOutputs({ db, known }, { ...third, ...ok }, {});
    expect((await outputsOf(db, third.id))[0]?.state).toBe("REFUSED");
  });

  test("[O01] hold mode, or a run that did not succeed, holds the output; auto makes it ready", async ({
    db,
    newRun,
  }) => {
    const held = await newRun();
    await held.propose(0, "comment", { number: 1, body: "b" });
    const failed = await newRun();
    await failed.propose(0, "comment", { number: 1, body: "b" });
    await checkRunOutputs(
      { db, known },
      { ...held, succeeded: true, status: "SUCCEEDED" },
      granted("hold"),
    );
    await checkRunOutputs(
      { db, known },
      { ...failed, succeeded: false, status: "FAILED" },
      granted("auto"),
    );
    const [h] = await outputsOf(db, held.id);
    const [f] = await outputsOf(db, failed.id);
    expect([h?.state, f?.state]).toEqual(["HELD", "HELD"]);
    expect(f?.reason).toContain("the run ended failed");
    const audits = await db.auditEvent.findMany({ where: { actorId: held.id } });
    expect(audits.map((a) => a.action)).toEqual(["output.held"]);
  });

  test("an output that is no longer PROPOSED is left alone; holding keeps the rest", async ({
    db,
    newRun,
  }) => {
    const run = await newRun();
    const first = await run.propose(0, "comment", { number: 1, body: "b" });
    await run.propose(1, "comment", { number: 2, body: "b" });
    await db.runOutput.update({ where: { id: first.id }, data: { state: "REFUSED" } });
    await holdOutputs(db, run, ["PROPOSED"], UNCHECKED_REASON);
    const rows = await outputsOf(db, run.id);
    expect(rows.map((r) => r.state)).toEqual(["REFUSED", "HELD"]);
    expect(rows[1]?.reason).toBe(UNCHECKED_REASON);
    const audits = await db.auditEvent.findMany({ where: { actorId: run.id } });
    expect(audits.map((a) => [a.action, a.targetId])).toEqual([["output.held", rows[1]?.id]]);
    expect(
      await checkRunOutputs(
        { db, known },
        { ...run, succeeded: true, status: "SUCCEEDED" },
        granted("auto"),
      ),
    ).toEqual([]);
  });
});

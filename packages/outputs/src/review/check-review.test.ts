// The threat review inside the finalize checks (issue #24 phase c): only when the plan asks for
// it, only of what was not refused, and a warning, an unclear answer or a failed review holds
// the output even in auto mode.
import { createRun, seedJob, seedTenant } from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { GrantedOutputs } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import { checkRunOutputs } from "../check/check-run.ts";
import type { ReviewModelCall } from "./review-proposals.ts";

const PLANTED = "planted-run-secret-9d2f";
const known = { mask: (text: string) => text.replaceAll(PLANTED, "[redacted]") };

const granted = (threatReview: boolean): GrantedOutputs => ({
  comment: { max: 5, target: "any", mode: "auto" },
  ...(threatReview ? { threatReview: true as const } : {}),
});

const test = dbTest.extend("newRun", { scope: "file" }, async ({ db }) => {
  const tenant = await seedTenant(db);
  return async (bodies: string[]) => {
    const jobId = await seedJob(db, tenant);
    const id = await createRun(db, tenant.workspaceId, jobId);
    for (const [seq, body] of bodies.entries())
      await db.runOutput.create({
        data: {
          workspaceId: tenant.workspaceId,
          runId: id,
          jobId,
          seq,
          kind: "comment",
          payload: { number: 7, body },
        },
      });
    const outputs = () => db.runOutput.findMany({ where: { runId: id }, orderBy: { seq: "asc" } });
    return { id, workspaceId: tenant.workspaceId, outputs };
  };
});

/** Answers by the comment's body: `ok`, `warn`, `garbage`, `secret` or `throw`. */
const scripted = (seen: string[]): ReviewModelCall => {
  return ({ user }) => {
    seen.push(user);
    if (user.includes("body-ok")) return Promise.resolve("VERDICT: OK\nPlain status comment.");
    if (user.includes("body-warn"))
      return Promise.resolve(
        "VERDICT: WARN\nThe comment tells other agents to ignore their instructions.",
      );
    if (user.includes("body-secret"))
      return Promise.resolve(`VERDICT: WARN\nIt mentions ${PLANTED}.`);
    if (user.includes("body-throw")) return Promise.reject(new Error("HTTP 502 from the gateway"));
    return Promise.resolve("Sure! Here is my review: all good.");
  };
};

const succeeded = { succeeded: true, status: "SUCCEEDED" };

describe("finalize checks: the threat review", () => {
  test("[O05] before any write each proposal is reviewed: OK stays READY, WARN, garbage and a failed call hold it", async ({
    db,
    newRun,
  }) => {
    const run = await newRun(["body-ok", "body-warn", "body-garbage", "body-throw"]);
    const seen: string[] = [];
    const checked = await checkRunOutputs(
      { db, known, review: scripted(seen) },
      { ...run, ...succeeded },
      granted(true),
    );
    expect(seen).toHaveLength(4);
    expect(checked.map((c) => c.state)).toEqual(["READY", "HELD", "HELD", "HELD"]);
    const [ok, warn, garbage, failed] = await run.outputs();
    expect(ok?.reason).toBeNull();
    expect((ok?.payload as { review: unknown }).review).toEqual({
      verdict: "ok",
      notes: "Plain status comment.",
    });
    expect((ok?.payload as { body: string }).body).toBe("body-ok");
    expect(warn?.reason).toBe(
      "Held: the threat review warns: The comment tells other agents to ignore their instructions.",
    );
    expect((warn?.payload as { review: unknown }).review).toEqual({
      verdict: "warn",
      notes: "The comment tells other agents to ignore their instructions.",
    });
    expect(garbage?.reason).toBe(
      "Held: the threat review warns: the review did not give a clear verdict",
    );
    expect(failed?.reason).toBe("Held: the threat review could not run: HTTP 502 from the gateway");
    expect((failed?.payload as { review?: unknown }).review).toBeUndefined();
    const audit = await db.auditEvent.findMany({
      where: { workspaceId: run.workspaceId, action: "output.held" },
    });
    expect(audit).toHaveLength(3);
  });

  test("a secret the model repeats in its notes is masked in the notes and the reason", async ({
    db,
    newRun,
  }) => {
    const run = await newRun(["body-secret"]);
    await checkRunOutputs(
      { db, known, review: scripted([]) },
      { ...run, ...succeeded },
      granted(true),
    );
    const [output] = await run.outputs();
    expect(output?.state).toBe("HELD");
    expect(JSON.stringify(output)).not.toContain(PLANTED);
    expect(output?.reason).toBe("Held: the threat review warns: It mentions [redacted].");
  });

  test("refused outputs are not reviewed, and nothing is reviewed without threatReview", async ({
    db,
    newRun,
  }) => {
    const refusedRun = await newRun([`body-ok ${PLANTED}`, "body-ok"]);
    const seen: string[] = [];
    const checked = await checkRunOutputs(
      { db, known, review: scripted(seen) },
      { ...refusedRun, ...succeeded },
      granted(true),
    );
    expect(checked.map((c) => c.state)).toEqual(["REFUSED", "READY"]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).not.toContain(PLANTED);

    const offRun = await newRun(["body-warn"]);
    const offSeen: string[] = [];
    const off = await checkRunOutputs(
      { db, known, review: scripted(offSeen) },
      { ...offRun, ...succeeded },
      granted(false),
    );
    expect(off.map((c) => c.state)).toEqual(["READY"]);
    expect(offSeen).toEqual([]);
  });

  test("a run that did not succeed is not reviewed: its outputs are held for the owner anyway", async ({
    db,
    newRun,
  }) => {
    const run = await newRun(["body-warn"]);
    const calls: string[] = [];
    await checkRunOutputs(
      { db, known, review: scripted(calls) },
      { ...run, succeeded: false, status: "FAILED" },
      granted(true),
    );
    const [output] = await run.outputs();
    expect(calls).toEqual([]);
    expect(output?.reason).toBe(
      "Held: the run ended failed, so an owner must approve this before it is applied.",
    );
  });

  test("threatReview without a model call holds every output not refused", async ({
    db,
    newRun,
  }) => {
    const run = await newRun(["body-ok"]);
    const checked = await checkRunOutputs({ db, known }, { ...run, ...succeeded }, granted(true));
    expect(checked.map((c) => c.state)).toEqual(["HELD"]);
    expect((await run.outputs())[0]?.reason).toBe(
      "Held: the threat review could not run: no model call was available.",
    );
  });
});

// finishRun writes a run's final status and the rest of its record (error, summary, diff) as one
// change: a trigger in this file's database logs every version of a Run row with the
// transaction that wrote it, and what each transaction committed (its last version of the row)
// is checked — so a final status committed without its summary fails, however fast the second
// write would have followed.
import type { Db } from "@secondshift/db";
import { seedRun } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { exhaustBudget, finishRun, type RunRef } from "./lifecycle.ts";

interface CommittedVersion {
  status: string;
  summary: string | null;
  diff: string | null;
}

const test = dbTest.extend("versionLog", { scope: "file" }, async ({ db }) => {
  await db.$executeRaw`CREATE TABLE "RunVersionLog" (
    "n" bigserial PRIMARY KEY, "xid" bigint NOT NULL, "runId" text NOT NULL,
    "status" text NOT NULL, "summary" text, "diff" text)`;
  await db.$executeRaw`CREATE FUNCTION log_run_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO "RunVersionLog" ("xid", "runId", "status", "summary", "diff")
      VALUES (txid_current(), NEW."id", NEW."status"::text, NEW."summary", NEW."diff");
      RETURN NEW;
    END $$`;
  await db.$executeRaw`CREATE TRIGGER log_run_version AFTER UPDATE ON "Run"
    FOR EACH ROW EXECUTE FUNCTION log_run_version()`;
  /** Each transaction's last version of the run: what a reader could see after its commit. */
  return (run: RunRef) =>
    db.$queryRaw<CommittedVersion[]>`
      SELECT DISTINCT ON ("xid") "status", "summary", "diff" FROM "RunVersionLog"
      WHERE "runId" = ${run.id} ORDER BY "xid", "n" DESC`;
});

const recordOf = (db: Db, run: RunRef) =>
  db.run.findFirstOrThrow({
    where: run,
    select: { status: true, error: true, summary: true, diff: true, finishedAt: true },
  });

describe("finishRun", () => {
  test("commits the final status with its summary and diff, never before them", async ({
    db,
    seed,
    versionLog,
  }) => {
    const run = await seedRun(db, seed, { status: "RUNNING" });
    const finished = await finishRun(db, run, {
      status: "SUCCEEDED",
      summary: "Fixed the flaky test.",
      diff: "--- a/x\n+++ b/x\n",
    });
    expect(finished).toEqual({ status: "SUCCEEDED", error: null });
    expect(await versionLog(run)).toEqual([
      { status: "SUCCEEDED", summary: "Fixed the flaky test.", diff: "--- a/x\n+++ b/x\n" },
    ]);
    expect(await recordOf(db, run)).toMatchObject({
      status: "SUCCEEDED",
      error: null,
      summary: "Fixed the flaky test.",
      finishedAt: expect.any(Date) as unknown,
    });
  });

  test("inside the caller's transaction, the record commits (or not) with it", async ({
    db,
    seed,
    versionLog,
  }) => {
    const run = await seedRun(db, seed, { status: "RUNNING" });
    await expect(
      db.$transaction(async (tx) => {
        await finishRun(tx, run, { status: "FAILED", error: "it broke", summary: "half" });
        throw new Error("the caller's next step failed");
      }),
    ).rejects.toThrow("the caller's next step failed");
    expect(await recordOf(db, run)).toMatchObject({ status: "RUNNING", summary: null });

    await db.$transaction((tx) =>
      finishRun(tx, run, { status: "FAILED", error: "it broke", summary: "half" }),
    );
    expect(await recordOf(db, run)).toMatchObject({
      status: "FAILED",
      error: "it broke",
      summary: "half",
    });
    // The rolled-back attempt left nothing a reader could have seen.
    expect(await versionLog(run)).toEqual([{ status: "FAILED", summary: "half", diff: null }]);
  });

  test("a run the gateway already ended keeps its status and gets the executor's record", async ({
    db,
    seed,
  }) => {
    const run = await seedRun(db, seed, { status: "RUNNING" });
    expect(await exhaustBudget(db, run)).toBe(true);
    const finished = await finishRun(db, run, {
      status: "SUCCEEDED",
      summary: "ran out",
      diff: "",
    });
    expect(finished.status).toBe("BUDGET_EXHAUSTED");
    expect(await recordOf(db, run)).toMatchObject({
      status: "BUDGET_EXHAUSTED",
      summary: "ran out",
      diff: null,
    });
  });
});

// Walks every (from, to) status pair through every lifecycle function: an allowed transition
// happens once (the same call again changes nothing) and writes one event; every other one is
// refused and writes nothing.
import type { Db, RunStatus } from "@secondshift/db";
import { seedRun } from "@secondshift/db/testing";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { appendRunEvent } from "./events.ts";
import {
  claimRun,
  exhaustBudget,
  failLostRuns,
  failRun,
  finishRun,
  heartbeat,
  refuseEventActor,
  requestCancel,
  revokeRun,
  supersedeRun,
  type RunRef,
} from "./lifecycle.ts";
import { FINAL_STATUSES, TRANSITIONS, type TransitionName } from "./transitions.ts";

const STATUSES: RunStatus[] = ["QUEUED", "RUNNING", ...FINAL_STATUSES];
const WORKER = "worker-1";

/** Each transition, called as its callers call it; true when it changed the run. */
const attempt: Record<TransitionName, (db: Db, run: RunRef, to: RunStatus) => Promise<boolean>> = {
  claim: async (db, run) => (await claimRun(db, run, WORKER)) === "claimed",
  cancelQueued: async (db, run) => {
    const before = await statusOf(db, run);
    return before === "QUEUED" && (await requestCancel(db, run)) === "CANCELLED";
  },
  supersede: (db, run) => supersedeRun(db, run, "A newer event replaced it."),
  refuseEventActor: async (db, run) => {
    const before = await statusOf(db, run);
    return (await refuseEventActor(db, run, "no write access")) && before === "QUEUED";
  },
  fail: (db, run) => failRun(db, run, "it broke"),
  finish: async (db, run, to) => {
    const before = await statusOf(db, run);
    const after = await finishRun(db, run, { status: to as (typeof FINAL_STATUSES)[number] });
    return before !== after.status;
  },
  exhaustBudget: (db, run) => exhaustBudget(db, run),
  revoke: (db, run) => revokeRun(db, run, "The owner revoked the grant; the run stops."),
  loseWorker: async (db, run) => {
    await db.run.updateMany({ where: run, data: { heartbeatAt: new Date(0) } });
    return (await failLostRuns(db, 1000)).some((lost) => lost.id === run.id);
  },
};

async function statusOf(db: Db, run: RunRef): Promise<RunStatus> {
  return (await db.run.findFirstOrThrow({ where: run, select: { status: true } })).status;
}

const eventsOf = (db: Db, run: RunRef) =>
  db.runEvent.findMany({ where: { runId: run.id }, orderBy: { seq: "asc" } });

/**
 * The allowed moves, written out independently of TRANSITIONS so that a change to the table
 * fails this test until the change is made here too, on purpose.
 */
const FINAL = FINAL_STATUSES.join(" ");
const EXPECTED: Record<TransitionName, string> = {
  claim: "QUEUED>RUNNING",
  cancelQueued: "QUEUED>CANCELLED",
  supersede: "QUEUED>SUPERSEDED",
  refuseEventActor: "QUEUED>CANCELLED",
  fail: "QUEUED>FAILED RUNNING>FAILED",
  finish: FINAL.split(" ")
    .map((to) => `RUNNING>${to}`)
    .join(" "),
  exhaustBudget: "RUNNING>BUDGET_EXHAUSTED",
  revoke: "RUNNING>REVOKED",
  loseWorker: "RUNNING>FAILED",
};
const isExpected = (name: TransitionName, from: RunStatus, to: RunStatus) =>
  EXPECTED[name].split(" ").includes(`${from}>${to}`);

// Every status pair, tried through every transition that can write its target status.
const pairs = STATUSES.flatMap((from) =>
  (Object.keys(TRANSITIONS) as TransitionName[]).flatMap((name) =>
    STATUSES.filter((to) => (TRANSITIONS[name].to as readonly RunStatus[]).includes(to)).map(
      (to) => ({ from, name, to }),
    ),
  ),
);

test("every expected move has a transition that writes it", () => {
  for (const name of Object.keys(EXPECTED) as TransitionName[])
    for (const move of EXPECTED[name].split(" ")) {
      const [from, to] = move.split(">") as [RunStatus, RunStatus];
      expect(pairs).toContainEqual({ from, name, to });
    }
});

describe("run lifecycle: every status pair", () => {
  test.for(pairs)("$name from $from to $to", async ({ from, name, to }, { db, seed }) => {
    const run = await seedRun(db, seed, { status: from, workerId: WORKER });
    const allowed = isExpected(name, from, to);

    expect(await attempt[name](db, run, to)).toBe(allowed);
    expect(await statusOf(db, run)).toBe(allowed ? to : from);
    const events = await eventsOf(db, run);
    expect(events).toHaveLength(allowed ? 1 : 0);
    if (allowed)
      expect(events[0]).toMatchObject({ type: "status", seq: 0, payload: { status: to } });

    // The same call again is a no-op: no change, no second event.
    expect(await attempt[name](db, run, to)).toBe(false);
    expect(await statusOf(db, run)).toBe(allowed ? to : from);
    expect(await eventsOf(db, run)).toHaveLength(allowed ? 1 : 0);
  });
});

describe("run lifecycle: details", () => {
  test("a claim respects the workspace's concurrency limit", async ({ db, seed }) => {
    await db.workspace.update({ where: { id: seed.workspaceId }, data: { maxConcurrentRuns: 1 } });
    const first = await seedRun(db, seed);
    const second = await seedRun(db, seed);
    expect(await claimRun(db, first, WORKER)).toBe("claimed");
    expect(await claimRun(db, second, WORKER)).toBe("at_limit");
    expect(await claimRun(db, first, WORKER)).toBe("not_queued");
  });

  test("concurrent claims never exceed the limit", async ({ db, seed }) => {
    await db.workspace.update({ where: { id: seed.workspaceId }, data: { maxConcurrentRuns: 2 } });
    const runs = await Promise.all(Array.from({ length: 6 }, () => seedRun(db, seed)));
    const results = await Promise.all(runs.map((run) => claimRun(db, run, WORKER)));
    expect(results.filter((r) => r === "claimed")).toHaveLength(2);
  });

  test("a cancel request on a running run is recorded once and keeps it running", async ({
    db,
    seed,
  }) => {
    const run = await seedRun(db, seed, { status: "RUNNING" });
    expect(await requestCancel(db, run)).toBe("RUNNING");
    expect(await requestCancel(db, run)).toBe("RUNNING");
    const row = await db.run.findFirstOrThrow({ where: run });
    expect(row.cancelRequestedAt).not.toBeNull();
    expect(await eventsOf(db, run)).toMatchObject([{ payload: { cancelRequested: true } }]);
  });

  test("[C17] budget exhaustion ends the run and revokes its tokens at once", async ({
    db,
    seed,
  }) => {
    const run = await seedRun(db, seed, { status: "RUNNING" });
    await db.runToken.create({
      data: {
        ...{ workspaceId: run.workspaceId, runId: run.id },
        tokenHash: Buffer.from(run.id),
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    expect(await exhaustBudget(db, run)).toBe(true);
    const token = await db.runToken.findFirstOrThrow({ where: { runId: run.id } });
    expect(token.revokedAt).not.toBeNull();
    // The executor's later finish keeps the gateway's status and fills in the record.
    const finished = await finishRun(db, run, { status: "SUCCEEDED", summary: "done" });
    expect(finished.status).toBe("BUDGET_EXHAUSTED");
    expect(finished.error).toMatch(/token budget/);
    const row = await db.run.findFirstOrThrow({ where: run });
    expect(row).toMatchObject({ summary: "done" });
    expect(row.finishedAt).not.toBeNull();
  });

  test("[C06] a revocation fails the running run with the broker's message", async ({
    db,
    seed,
  }) => {
    const run = await seedRun(db, seed, { status: "RUNNING" });
    expect(await revokeRun(db, run, "The owner revoked the grant.")).toBe(true);
    expect(await db.run.findFirstOrThrow({ where: run })).toMatchObject({
      status: "REVOKED",
      error: "The owner revoked the grant.",
    });
  });

  test("a failure guarded by worker id leaves another worker's run alone", async ({ db, seed }) => {
    const run = await seedRun(db, seed, { status: "RUNNING", workerId: "other" });
    expect(await failRun(db, run, "left running", { workerId: WORKER })).toBe(false);
    expect(await failRun(db, run, "left running", { workerId: "other" })).toBe(true);
  });

  test("a heartbeat counts only for the owning worker of a running run", async ({ db, seed }) => {
    const run = await seedRun(db, seed, { status: "RUNNING", workerId: WORKER });
    expect(await heartbeat(db, run, WORKER)).toBe(true);
    expect(await heartbeat(db, run, "other")).toBe(false);
    await failRun(db, run, "stopped");
    expect(await heartbeat(db, run, WORKER)).toBe(false);
  });

  test("a run of another workspace is never changed", async ({ db, seed }) => {
    const run = await seedRun(db, seed, { status: "RUNNING" });
    const foreign = { id: run.id, workspaceId: crypto.randomUUID() };
    expect(await failRun(db, foreign, "x")).toBe(false);
    expect(await revokeRun(db, foreign, "x")).toBe(false);
    expect(await exhaustBudget(db, foreign)).toBe(false);
    expect(await requestCancel(db, foreign)).toBeNull();
    expect(await statusOf(db, run)).toBe("RUNNING");
  });

  test("[P03] a lost run's tokens are revoked in the statement that fails it; a live run's stay", async ({
    db,
    seed,
  }) => {
    const [lost, alive] = await Promise.all([
      seedRun(db, seed, { status: "RUNNING", workerId: WORKER }),
      seedRun(db, seed, { status: "RUNNING", workerId: WORKER }),
    ]);
    for (const run of [lost, alive]) {
      await db.runToken.create({
        data: {
          ...{ workspaceId: run.workspaceId, runId: run.id },
          tokenHash: Buffer.from(run.id),
          expiresAt: new Date(Date.now() + 60_000),
        },
      });
    }
    await db.run.update({ where: { id: lost.id }, data: { heartbeatAt: new Date(0) } });
    await db.run.update({ where: { id: alive.id }, data: { heartbeatAt: new Date() } });
    const failed = await failLostRuns(db, 60_000);
    expect(failed.map((run) => run.id)).toContain(lost.id);
    const tokenOf = (run: { id: string }) =>
      db.runToken.findFirstOrThrow({ where: { runId: run.id } });
    expect((await tokenOf(lost)).revokedAt).not.toBeNull();
    expect((await tokenOf(alive)).revokedAt).toBeNull();
  });

  test("two recoverers racing each fail a lost run once, with one status event", async ({
    db,
    seed,
  }) => {
    const lost = await Promise.all(
      Array.from({ length: 12 }, () => seedRun(db, seed, { status: "RUNNING", workerId: WORKER })),
    );
    const alive = await seedRun(db, seed, { status: "RUNNING", workerId: WORKER });
    const lostIds = lost.map((run) => run.id);
    await db.run.updateMany({ where: { id: { in: lostIds } }, data: { heartbeatAt: new Date(0) } });

    const [a, b] = await Promise.all([failLostRuns(db, 60_000), failLostRuns(db, 60_000)]);
    const recovered = [...a, ...b].filter((run) => run.workspaceId === seed.workspaceId);
    expect(recovered.map((run) => run.id).sort()).toEqual(lostIds.sort());
    for (const run of lost) {
      expect(await eventsOf(db, run)).toMatchObject([
        { seq: 0, type: "status", payload: { status: "FAILED", transition: "loseWorker" } },
      ]);
    }
    expect(await statusOf(db, alive)).toBe("RUNNING");
  });

  test("events appended while the status changes get distinct, gapless numbers", async ({
    db,
    seed,
  }) => {
    const run = await seedRun(db, seed, { status: "RUNNING" });
    await Promise.all([
      ...Array.from({ length: 20 }, (_, i) =>
        appendRunEvent(db, run, { type: "log", payload: { i } }),
      ),
      exhaustBudget(db, run),
      revokeRun(db, run, "x"),
    ]);
    const seqs = (await eventsOf(db, run)).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: 21 }, (_, i) => i));
  });
});

// The lifecycle builds its status events in SQL; the API ends a live transcript and the web app
// draws a status line by reading them with the vocabulary's schema. Each transition's event, and
// the cancel request's, must read as a typed status event (not as an unknown one).
import type { Db } from "@secondshift/db";
import { seedRun } from "@secondshift/db/testing";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import { readTranscriptEvent, type ReadTranscriptEvent } from "@secondshift/vocabulary";
import { describe, expect } from "vitest";
import {
  claimRun,
  exhaustBudget,
  failLostRuns,
  failRun,
  finishRun,
  requestCancel,
  revokeRun,
  type RunRef,
} from "./lifecycle.ts";

async function lastEvent(db: Db, run: RunRef): Promise<ReadTranscriptEvent> {
  const row = await db.runEvent.findFirstOrThrow({
    where: { runId: run.id, workspaceId: run.workspaceId },
    orderBy: { seq: "desc" },
  });
  return readTranscriptEvent(row.type, row.payload);
}

describe("status events", () => {
  test("every transition writes a status event of the vocabulary's shape", async ({ db, seed }) => {
    const moves = [
      {
        from: "QUEUED",
        to: "RUNNING",
        transition: "claim",
        go: (r: RunRef) => claimRun(db, r, "w"),
      },
      {
        from: "QUEUED",
        to: "CANCELLED",
        transition: "cancelQueued",
        go: (r: RunRef) => requestCancel(db, r),
      },
      {
        from: "RUNNING",
        to: "FAILED",
        transition: "fail",
        go: (r: RunRef) => failRun(db, r, "broke"),
      },
      {
        from: "RUNNING",
        to: "TIMED_OUT",
        transition: "finish",
        go: (r: RunRef) => finishRun(db, r, { status: "TIMED_OUT" }),
      },
      {
        from: "RUNNING",
        to: "BUDGET_EXHAUSTED",
        transition: "exhaustBudget",
        go: (r: RunRef) => exhaustBudget(db, r),
      },
      {
        from: "RUNNING",
        to: "REVOKED",
        transition: "revoke",
        go: (r: RunRef) => revokeRun(db, r, "revoked"),
      },
    ] as const;
    for (const move of moves) {
      const run = await seedRun(db, seed, { status: move.from });
      await move.go(run);
      const event = await lastEvent(db, run);
      expect(event, move.transition).toMatchObject({
        type: "status",
        payload: { status: move.to, transition: move.transition },
      });
    }
  });

  test("a lost worker's run and a cancel request while running read as status events", async ({
    db,
    seed,
  }) => {
    const lost = await seedRun(db, seed, { status: "RUNNING" });
    await db.run.updateMany({ where: lost, data: { heartbeatAt: new Date(0) } });
    await failLostRuns(db, 1000);
    expect(await lastEvent(db, lost)).toMatchObject({
      type: "status",
      payload: { status: "FAILED", transition: "loseWorker" },
    });
    const running = await seedRun(db, seed, { status: "RUNNING" });
    await requestCancel(db, running);
    expect(await lastEvent(db, running)).toEqual({
      type: "status",
      payload: { status: "RUNNING", cancelRequested: true },
    });
  });
});

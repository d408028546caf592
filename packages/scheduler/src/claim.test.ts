import { describe, expect, vi } from "vitest";
import type { Db } from "@secondshift/db";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import { claimRun as claim, heartbeat as beat } from "@secondshift/run-lifecycle";
import { recoverLostRuns, WORKER_LOST_ERROR } from "./recover.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";

const claimRun = (db: Db, r: { runId: string; workspaceId: string; workerId: string }) =>
  claim(db, { id: r.runId, workspaceId: r.workspaceId }, r.workerId);

async function queuedRuns(db: Db, limit: number, count: number) {
  const workspaceId = await createWorkspace(db, limit);
  const repositoryId = await createRepository(db, workspaceId);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const jobId = await createJob(db, { workspaceId, repositoryId });
    ids.push(
      (await db.run.create({ data: { workspaceId, jobId, trigger: "MANUAL", budgetTokens: 1 } }))
        .id,
    );
  }
  return { workspaceId, ids };
}

describe("claimRun", () => {
  test("starts at most maxConcurrentRuns runs of a workspace even when every claim races", async ({
    db,
  }) => {
    const { workspaceId, ids } = await queuedRuns(db, 2, 8);
    const results = await Promise.all(
      ids.map((runId, i) => claimRun(db, { runId, workspaceId, workerId: `w${i % 3}` })),
    );
    expect(results.filter((r) => r === "claimed")).toHaveLength(2);
    expect(results.filter((r) => r === "at_limit")).toHaveLength(6);
    expect(await db.run.count({ where: { workspaceId, status: "RUNNING" } })).toBe(2);
    // Waiting runs stay visible as QUEUED.
    expect(await db.run.count({ where: { workspaceId, status: "QUEUED" } })).toBe(6);

    // A finished run frees a slot; an already claimed run is never claimed again.
    const running = await db.run.findMany({ where: { workspaceId, status: "RUNNING" } });
    await db.run.update({ where: { id: running[0]!.id }, data: { status: "SUCCEEDED" } });
    expect(await claimRun(db, { runId: running[1]!.id, workspaceId, workerId: "w9" })).toBe(
      "not_queued",
    );
    const waiting = ids.filter((id) => !running.some((r) => r.id === id));
    expect(await claimRun(db, { runId: waiting[0]!, workspaceId, workerId: "w9" })).toBe("claimed");
    expect(await claimRun(db, { runId: waiting[1]!, workspaceId, workerId: "w9" })).toBe(
      "at_limit",
    );
  });

  test("does not claim a run through another workspace's id", async ({ db }) => {
    const { ids } = await queuedRuns(db, 5, 1);
    const other = await createWorkspace(db, 5);
    expect(await claimRun(db, { runId: ids[0]!, workspaceId: other, workerId: "w" })).toBe(
      "not_queued",
    );
  });
});

describe("heartbeat and recoverLostRuns", () => {
  test("heartbeat only touches the worker's own RUNNING run", async ({ db }) => {
    const { workspaceId, ids } = await queuedRuns(db, 5, 1);
    const runId = ids[0]!;
    expect(await beat(db, { id: runId, workspaceId }, "w1")).toBe(false);
    await claimRun(db, { runId, workspaceId, workerId: "w1" });
    expect(await beat(db, { id: runId, workspaceId }, "w1")).toBe(true);
    expect(await beat(db, { id: runId, workspaceId }, "w2")).toBe(false);
  });

  test("fails a run whose heartbeat stopped exactly once and calls onLost once, with two recoverers racing", async ({
    db,
  }) => {
    const { workspaceId, ids } = await queuedRuns(db, 5, 3);
    for (const runId of ids) await claimRun(db, { runId, workspaceId, workerId: "dead-worker" });
    const [lostId, freshId, nullHeartbeatId] = ids as [string, string, string];
    await db.$executeRaw`UPDATE "Run" SET "heartbeatAt" = now() - interval '2 minutes' WHERE id = ${lostId}`;
    await db.$executeRaw`UPDATE "Run" SET "heartbeatAt" = NULL, "startedAt" = now() - interval '2 minutes' WHERE id = ${nullHeartbeatId}`;

    const onLost = vi.fn();
    const [a, b] = await Promise.all([
      recoverLostRuns(db, { heartbeatTimeoutMs: 30_000, onLost }),
      recoverLostRuns(db, { heartbeatTimeoutMs: 30_000, onLost }),
    ]);
    const lost = [...a, ...b].filter((r) => r.workspaceId === workspaceId);
    expect(lost.map((r) => r.id).sort()).toEqual([lostId, nullHeartbeatId].sort());
    expect(onLost.mock.calls.map(([run]) => (run as { id: string }).id).sort()).toEqual(
      [lostId, nullHeartbeatId].sort(),
    );
    expect(lost[0]).toMatchObject({
      workerId: "dead-worker",
      jobId: expect.any(String) as unknown,
    });

    const runs = new Map((await db.run.findMany({ where: { workspaceId } })).map((r) => [r.id, r]));
    expect(runs.get(lostId)).toMatchObject({
      status: "FAILED",
      error: WORKER_LOST_ERROR,
      finishedAt: expect.any(Date) as unknown,
    });
    expect(runs.get(freshId)?.status).toBe("RUNNING");
    // A late heartbeat from the lost worker cannot revive the run.
    expect(await beat(db, { id: lostId, workspaceId }, "dead-worker")).toBe(false);
    expect(await recoverLostRuns(db, { heartbeatTimeoutMs: 30_000, onLost })).toEqual([]);
    expect(onLost).toHaveBeenCalledTimes(2);
  });

  test("keeps going when onLost throws for one run", async ({ db }) => {
    const { workspaceId, ids } = await queuedRuns(db, 5, 2);
    for (const runId of ids) await claimRun(db, { runId, workspaceId, workerId: "dead" });
    await db.$executeRaw`UPDATE "Run" SET "heartbeatAt" = now() - interval '1 minute' WHERE "workspaceId" = ${workspaceId}`;
    const seen: string[] = [];
    const lost = await recoverLostRuns(db, {
      heartbeatTimeoutMs: 1_000,
      onLost: (run) => {
        if (run.workspaceId !== workspaceId) return; // other tests' runs in this database
        seen.push(run.id);
        if (seen.length === 1) throw new Error("docker unavailable");
      },
    });
    expect(lost.filter((r) => r.workspaceId === workspaceId)).toHaveLength(2);
    expect(seen).toHaveLength(2);
    expect(
      await db.run.count({ where: { workspaceId, status: "FAILED", error: WORKER_LOST_ERROR } }),
    ).toBe(2);
  });
});

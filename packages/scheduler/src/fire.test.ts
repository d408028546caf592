import { describe, expect } from "vitest";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { handleFire, SCHEDULE_MISSED_ACTION, SCHEDULE_SKIPPED_ACTION } from "./fire.ts";
import { createRunQueue } from "./queues.ts";
import { requeueQueuedRuns } from "./recover.ts";
import { fireTime } from "./schedule-worker.ts";
import {
  createJob,
  createRepository,
  createWorkspace,
  type JobFixture,
} from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

const conn = testQueueConnection();

const test = dbTest.extend(
  "runQueue",
  { scope: "file" },
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  ({}, { onCleanup }) => {
    const runQueue = createRunQueue(conn);
    onCleanup(async () => {
      await runQueue.close();
      await deletePrefix(testRedisUrl(), conn.prefix);
    });
    return runQueue;
  },
);

async function newJob(db: Db, overrides: Partial<JobFixture> = {}) {
  const workspaceId = await createWorkspace(db);
  const repositoryId = await createRepository(db, workspaceId);
  const jobId = await createJob(db, { workspaceId, repositoryId, ...overrides });
  return { workspaceId, jobId };
}

describe("handleFire", () => {
  test("creates exactly one run and one queue job for a fire delivered several times", async ({
    db,
    runQueue,
  }) => {
    const { workspaceId, jobId } = await newJob(db);
    const fire = { workspaceId, jobId, scheduledFor: new Date("2026-06-01T09:00:00Z") };
    const outcomes = await Promise.all([
      handleFire(db, runQueue, fire),
      handleFire(db, runQueue, fire),
      handleFire(db, runQueue, fire),
    ]);
    outcomes.push(await handleFire(db, runQueue, fire));

    const created = outcomes.filter((o) => o.outcome === "created");
    expect(created).toHaveLength(1);
    const runId = created[0]?.outcome === "created" ? created[0].runId : "";
    expect(outcomes.filter((o) => o.outcome === "duplicate")).toEqual(
      Array(3).fill({ outcome: "duplicate", runId }),
    );
    const runs = await db.run.findMany({ where: { workspaceId, jobId } });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({
      id: runId,
      trigger: "SCHEDULE",
      status: "QUEUED",
      scheduledFor: fire.scheduledFor,
      budgetTokens: 10_000,
    });
    const queued = await runQueue.getJobs(["waiting", "delayed", "active"]);
    expect(queued.filter((j) => j.data.runId === runId).map((j) => j.id)).toEqual([runId]);
  });

  test("skips a fire while the previous run is queued or running and records why, never stacking", async ({
    db,
    runQueue,
  }) => {
    const { workspaceId, jobId } = await newJob(db);
    const first = await handleFire(db, runQueue, {
      workspaceId,
      jobId,
      scheduledFor: new Date("2026-06-01T09:00:00Z"),
    });
    expect(first.outcome).toBe("created");
    const second = await handleFire(db, runQueue, {
      workspaceId,
      jobId,
      scheduledFor: new Date("2026-06-01T09:01:00Z"),
    });
    expect(second).toEqual({ outcome: "skipped", reason: "previous_run_active" });

    await db.run.updateMany({ where: { workspaceId, jobId }, data: { status: "RUNNING" } });
    const third = await handleFire(db, runQueue, {
      workspaceId,
      jobId,
      scheduledFor: new Date("2026-06-01T09:02:00Z"),
    });
    expect(third).toEqual({ outcome: "skipped", reason: "previous_run_active" });
    expect(await db.run.count({ where: { workspaceId, jobId } })).toBe(1);

    const skips = await db.auditEvent.findMany({
      where: { workspaceId, action: SCHEDULE_SKIPPED_ACTION },
    });
    expect(skips).toHaveLength(2);
    expect(skips[0]).toMatchObject({
      actorType: "SYSTEM",
      actorId: "scheduler",
      targetType: "Job",
      targetId: jobId,
      outcome: "previous_run_active",
    });

    await db.run.updateMany({ where: { workspaceId, jobId }, data: { status: "SUCCEEDED" } });
    const fourth = await handleFire(db, runQueue, {
      workspaceId,
      jobId,
      scheduledFor: new Date("2026-06-01T09:03:00Z"),
    });
    expect(fourth.outcome).toBe("created");
  });

  test("skips (and records) a fire that arrives after the job was paused or lost its approval", async ({
    db,
    runQueue,
  }) => {
    const { workspaceId, jobId } = await newJob(db, { status: "NEEDS_APPROVAL" });
    const outcome = await handleFire(db, runQueue, {
      workspaceId,
      jobId,
      scheduledFor: new Date("2026-06-01T09:00:00Z"),
    });
    expect(outcome).toEqual({ outcome: "skipped", reason: "job_not_schedulable" });
    await db.job.update({ where: { id: jobId }, data: { status: "APPROVED", enabled: false } });
    expect(
      (
        await handleFire(db, runQueue, {
          workspaceId,
          jobId,
          scheduledFor: new Date("2026-06-01T09:01:00Z"),
        })
      ).outcome,
    ).toBe("skipped");
    expect(await db.run.count({ where: { jobId } })).toBe(0);
    expect(
      await db.auditEvent.count({
        where: { workspaceId, targetId: jobId, outcome: "job_not_schedulable" },
      }),
    ).toBe(2);
  });

  test("skips (and records) a fire for a job removed from its repository or left without a schedule", async ({
    db,
    runQueue,
  }) => {
    const removed = await newJob(db);
    await db.job.update({
      where: { id: removed.jobId },
      data: { removedAt: new Date(), status: "REMOVED" },
    });
    const unscheduled = await newJob(db, { schedule: null });
    for (const { workspaceId, jobId } of [removed, unscheduled]) {
      const fire = { workspaceId, jobId, scheduledFor: new Date("2026-06-01T09:00:00Z") };
      expect(await handleFire(db, runQueue, fire)).toEqual({
        outcome: "skipped",
        reason: "job_not_schedulable",
      });
      expect(await db.run.count({ where: { jobId } })).toBe(0);
      expect(
        await db.auditEvent.count({
          where: { workspaceId, targetId: jobId, outcome: "job_not_schedulable" },
        }),
      ).toBe(1);
    }
  });

  test("records the fires missed while the scheduler was down, once, beside the late fire's run", async ({
    db,
    runQueue,
  }) => {
    const { workspaceId, jobId } = await newJob(db, { schedule: "*/5 * * * *" });
    const scheduledFor = new Date("2026-06-01T09:00:00Z");
    const missed = () =>
      db.auditEvent.findMany({ where: { workspaceId, action: SCHEDULE_MISSED_ACTION } });
    // On time (before the next fire at 09:05): nothing was missed.
    const onTime = { workspaceId, jobId, scheduledFor };
    await handleFire(db, runQueue, onTime, undefined, new Date("2026-06-01T09:00:02Z"));
    expect(await missed()).toEqual([]);
    await db.run.updateMany({ where: { workspaceId, jobId }, data: { status: "SUCCEEDED" } });

    // Delivered at 09:23 for 09:10: the 09:15 and 09:20 fires never came (BullMQ goes on from now).
    const late = { workspaceId, jobId, scheduledFor: new Date("2026-06-01T09:10:00Z") };
    const at = new Date("2026-06-01T09:23:00Z");
    expect((await handleFire(db, runQueue, late, undefined, at)).outcome).toBe("created");
    expect((await handleFire(db, runQueue, late, undefined, at)).outcome).toBe("duplicate");
    expect(await missed()).toMatchObject([
      {
        actorType: "SYSTEM",
        actorId: "scheduler",
        targetType: "Job",
        targetId: jobId,
        outcome: "scheduler_was_down",
      },
    ]);
  });

  test("does not create a run for a fire naming a job of another workspace", async ({
    db,
    runQueue,
  }) => {
    const { jobId } = await newJob(db);
    const other = await createWorkspace(db);
    const outcome = await handleFire(db, runQueue, {
      workspaceId: other,
      jobId,
      scheduledFor: new Date("2026-06-01T09:00:00Z"),
    });
    expect(outcome).toEqual({ outcome: "skipped", reason: "job_not_schedulable" });
    expect(await db.run.count({ where: { jobId } })).toBe(0);
  });

  test("requeues a QUEUED run whose enqueue was lost (crash after commit), once", async ({
    db,
    runQueue,
  }) => {
    const { workspaceId, jobId } = await newJob(db);
    const run = await db.run.create({
      data: { workspaceId, jobId, trigger: "MANUAL", budgetTokens: 1 },
    });
    expect(await runQueue.getJob(run.id)).toBeUndefined();
    expect(await requeueQueuedRuns(db, runQueue, { olderThanMs: 0, workspaceId })).toBe(1);
    expect((await runQueue.getJob(run.id))?.data).toEqual({ runId: run.id, workspaceId });
    expect(await requeueQueuedRuns(db, runQueue, { olderThanMs: 0, workspaceId })).toBe(0);
  });
});

describe("fireTime", () => {
  test("reads the scheduled time from opts.prevMillis, else from the scheduler job id", () => {
    expect(
      fireTime({ id: "repeat:job-x:1780000000000", opts: { prevMillis: 1780000000000 } }).getTime(),
    ).toBe(1780000000000);
    expect(fireTime({ id: "repeat:job-x:1780000001000", opts: {} }).getTime()).toBe(1780000001000);
    expect(() => fireTime({ id: "manual", opts: {} })).toThrow(/no fire time/);
  });
});

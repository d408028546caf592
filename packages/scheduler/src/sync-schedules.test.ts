import { describe, expect } from "vitest";
import { dbTest } from "@secondshift/db/testing/vitest";
import { nextFireTimes } from "./cron.ts";
import { createScheduleQueue, schedulerIdForJob, type ScheduleQueue } from "./queues.ts";
import { syncSchedules } from "./sync-schedules.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

const conn = testQueueConnection();

const test = dbTest.extend(
  "queue",
  { scope: "file" },
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  ({}, { onCleanup }) => {
    const queue = createScheduleQueue(conn);
    onCleanup(async () => {
      await queue.close();
      await deletePrefix(testRedisUrl(), conn.prefix);
    });
    return queue;
  },
);

async function schedulers(queue: ScheduleQueue) {
  const all = await queue.getJobSchedulers(0, -1, true);
  return new Map(all.map((s) => [s.key, s]));
}

describe("syncSchedules", () => {
  test("keeps exactly one scheduler per approved, enabled, scheduled job and follows job changes", async ({
    db,
    queue,
  }) => {
    const ws = await createWorkspace(db);
    const repo = await createRepository(db, ws);
    const a = await createJob(db, {
      workspaceId: ws,
      repositoryId: repo,
      schedule: "0 9 * * *",
      timezone: "Europe/Berlin",
    });
    const b = await createJob(db, { workspaceId: ws, repositoryId: repo, schedule: "*/5 * * * *" });
    const pending = await createJob(db, {
      workspaceId: ws,
      repositoryId: repo,
      status: "NEEDS_APPROVAL",
    });
    const paused = await createJob(db, { workspaceId: ws, repositoryId: repo, enabled: false });
    const unscheduled = await createJob(db, {
      workspaceId: ws,
      repositoryId: repo,
      schedule: null,
    });
    const removed = await createJob(db, { workspaceId: ws, repositoryId: repo });
    await db.job.update({
      where: { id: removed },
      data: { removedAt: new Date(), status: "REMOVED" },
    });

    const first = await syncSchedules(db, queue);
    expect(first.created.sort()).toEqual([a, b].sort());
    let now = await schedulers(queue);
    expect([...now.keys()].sort()).toEqual([schedulerIdForJob(a), schedulerIdForJob(b)].sort());
    for (const id of [pending, paused, unscheduled, removed])
      expect(now.has(schedulerIdForJob(id))).toBe(false);
    const sa = now.get(schedulerIdForJob(a));
    expect(sa).toMatchObject({
      pattern: "0 9 * * *",
      tz: "Europe/Berlin",
      template: { data: { workspaceId: ws, jobId: a } },
    });
    // BullMQ's stored next fire is what our cron helper predicts (same parser, same zone).
    expect(sa?.next).toBe(nextFireTimes("0 9 * * *", "Europe/Berlin", new Date(), 1)[0]?.getTime());

    // Idempotent: nothing is re-upserted, so pending fires and iteration counts are kept.
    const again = await syncSchedules(db, queue);
    expect(again).toMatchObject({ created: [], updated: [], removed: [] });
    expect(again.unchanged.sort()).toEqual([a, b].sort());
    expect((await schedulers(queue)).get(schedulerIdForJob(a))?.next).toBe(sa?.next);

    // Schedule and time zone changes update the scheduler in place.
    await db.job.update({ where: { id: a }, data: { schedule: "0 10 * * *" } });
    await db.job.update({ where: { id: b }, data: { timezone: "America/New_York" } });
    const changed = await syncSchedules(db, queue);
    expect(changed.updated.sort()).toEqual([a, b].sort());
    now = await schedulers(queue);
    expect(now.get(schedulerIdForJob(a))?.pattern).toBe("0 10 * * *");
    expect(now.get(schedulerIdForJob(b))?.tz).toBe("America/New_York");
    expect(now.size).toBe(2);

    // Pause, lost approval and removal each remove the scheduler.
    await db.job.update({ where: { id: a }, data: { enabled: false } });
    await db.job.update({ where: { id: b }, data: { status: "NEEDS_APPROVAL" } });
    const gone = await syncSchedules(db, queue);
    expect(gone.removed.sort()).toEqual([a, b].sort());
    expect((await schedulers(queue)).size).toBe(0);

    // Resume and re-approval bring them back; removal takes one away again.
    await db.job.update({ where: { id: a }, data: { enabled: true } });
    await db.job.update({ where: { id: b }, data: { status: "APPROVED" } });
    expect((await syncSchedules(db, queue)).created.sort()).toEqual([a, b].sort());
    await db.job.update({ where: { id: b }, data: { removedAt: new Date(), status: "REMOVED" } });
    expect((await syncSchedules(db, queue)).removed).toEqual([b]);
    expect([...(await schedulers(queue)).keys()]).toEqual([schedulerIdForJob(a)]);

    await db.job.update({ where: { id: a }, data: { enabled: false } });
    await syncSchedules(db, queue);
  });

  test("removes the scheduler of a job whose stored schedule is invalid and reports it", async ({
    db,
    queue,
  }) => {
    const ws = await createWorkspace(db);
    const repo = await createRepository(db, ws);
    const job = await createJob(db, { workspaceId: ws, repositoryId: repo, schedule: "0 9 * * *" });
    await syncSchedules(db, queue, { workspaceId: ws });
    await db.job.update({ where: { id: job }, data: { timezone: "Mars/Olympus" } });
    const result = await syncSchedules(db, queue, { workspaceId: ws });
    expect(result.invalid).toEqual([
      { jobId: job, error: expect.stringContaining("Unknown time zone") as unknown },
    ]);
    expect(result.removed).toEqual([job]);
    await db.job.update({ where: { id: job }, data: { timezone: "UTC", schedule: "0 99 * * *" } });
    expect((await syncSchedules(db, queue, { workspaceId: ws })).invalid[0]?.error).toContain(
      "Invalid cron schedule",
    );
    expect((await schedulers(queue)).has(schedulerIdForJob(job))).toBe(false);
  });

  test("with a workspaceId, leaves other workspaces' schedulers alone", async ({ db, queue }) => {
    const ws1 = await createWorkspace(db);
    const ws2 = await createWorkspace(db);
    const j1 = await createJob(db, {
      workspaceId: ws1,
      repositoryId: await createRepository(db, ws1),
    });
    const j2 = await createJob(db, {
      workspaceId: ws2,
      repositoryId: await createRepository(db, ws2),
    });
    await syncSchedules(db, queue, { workspaceId: ws1 });
    await syncSchedules(db, queue, { workspaceId: ws2 });
    await db.job.update({ where: { id: j2 }, data: { enabled: false } });

    const scoped = await syncSchedules(db, queue, { workspaceId: ws1 });
    expect(scoped).toMatchObject({ created: [], updated: [], removed: [], unchanged: [j1] });
    expect((await schedulers(queue)).has(schedulerIdForJob(j2))).toBe(true);
    expect((await syncSchedules(db, queue, { workspaceId: ws2 })).removed).toEqual([j2]);
  });
});

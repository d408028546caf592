// Scenario 8: fifty jobs due in the same second, end to end through BullMQ job schedulers,
// the fire worker, two run-queue workers and the database claim.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect } from "vitest";
import type { Worker } from "bullmq";
import type { RunModel } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger } from "@secondshift/logging";
import { createRunQueue, createScheduleQueue } from "./queues.ts";
import { createRunQueueWorker } from "./run-worker.ts";
import { createScheduleWorker } from "./schedule-worker.ts";
import { syncSchedules } from "./sync-schedules.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

const conn = testQueueConnection();
const logger = createLogger({ name: "scheduler-test", level: "silent" });

const test = dbTest
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("queues", { scope: "file" }, ({}, { onCleanup }) => {
    const queues = { scheduleQueue: createScheduleQueue(conn), runQueue: createRunQueue(conn) };
    onCleanup(async () => {
      await queues.scheduleQueue.close();
      await queues.runQueue.close();
      await deletePrefix(testRedisUrl(), conn.prefix);
    });
    return queues;
  })
  // The workers a test starts; closed after the file, before the queues and the database.
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("workers", { scope: "file" }, ({}, { onCleanup }) => {
    const workers: Worker[] = [];
    onCleanup(async () => {
      await Promise.all(workers.map((w) => w.close()));
    });
    return workers;
  });

/** A 6-field cron pattern that fires once, at `at` (UTC), this year. */
function onceAt(at: Date): string {
  return `${at.getUTCSeconds()} ${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} *`;
}

describe("fifty jobs due at once", () => {
  test("runs every fire exactly once, within the per-workspace and per-worker limits", async ({
    db,
    queues: { scheduleQueue, runQueue },
    workers,
  }) => {
    const limits = { a: 2, b: 3 };
    const ws = { a: await createWorkspace(db, limits.a), b: await createWorkspace(db, limits.b) };
    const jobIds: string[] = [];
    for (const [key, count] of [
      ["a", 30],
      ["b", 20],
    ] as const) {
      const repositoryId = await createRepository(db, ws[key]);
      for (let i = 0; i < count; i++)
        jobIds.push(await createJob(db, { workspaceId: ws[key], repositoryId, schedule: null }));
    }
    // All fifty get the same one-off fire time, a few seconds after the schedulers exist.
    const at = new Date(Math.ceil((Date.now() + 3_000) / 1_000) * 1_000);
    await db.job.updateMany({
      where: { id: { in: jobIds } },
      data: { schedule: onceAt(at), timezone: "UTC" },
    });
    expect((await syncSchedules(db, scheduleQueue)).created).toHaveLength(50);
    expect(Date.now()).toBeLessThan(at.getTime()); // the setup must not eat the fire time

    const running = new Map<string, number>();
    const maxRunning = new Map<string, number>();
    const maxDbRunning = new Map<string, number>();
    const perWorker = new Map<string, { now: number; max: number }>();
    const executed: string[] = [];
    const execute = async (run: RunModel, { workerId }: { workerId: string }) => {
      executed.push(run.id);
      const n = (running.get(run.workspaceId) ?? 0) + 1;
      running.set(run.workspaceId, n);
      maxRunning.set(run.workspaceId, Math.max(maxRunning.get(run.workspaceId) ?? 0, n));
      const w = perWorker.get(workerId) ?? { now: 0, max: 0 };
      w.now++;
      w.max = Math.max(w.max, w.now);
      perWorker.set(workerId, w);
      const inDb = await db.run.count({
        where: { workspaceId: run.workspaceId, status: "RUNNING" },
      });
      maxDbRunning.set(run.workspaceId, Math.max(maxDbRunning.get(run.workspaceId) ?? 0, inDb));
      await sleep(40);
      running.set(run.workspaceId, (running.get(run.workspaceId) ?? 0) - 1);
      w.now--;
      await db.run.update({
        where: { id: run.id },
        data: { status: "SUCCEEDED", finishedAt: new Date() },
      });
    };
    workers.push(createScheduleWorker({ ...conn, db, runQueue, logger, concurrency: 5 }));
    for (const workerId of ["worker-1", "worker-2"]) {
      workers.push(
        createRunQueueWorker({
          ...conn,
          db,
          concurrency: 3,
          execute,
          logger,
          workerId,
          limitRetryDelayMs: 60,
        }),
      );
    }

    const deadline = Date.now() + 40_000;
    while ((await db.run.count({ where: { status: "SUCCEEDED" } })) < 50 && Date.now() < deadline)
      await sleep(100);

    const runs = await db.run.findMany();
    expect(runs).toHaveLength(50);
    expect(runs.every((r) => r.status === "SUCCEEDED" && r.trigger === "SCHEDULE")).toBe(true);
    expect(runs.every((r) => r.scheduledFor?.getTime() === at.getTime())).toBe(true);
    expect(new Set(runs.map((r) => r.jobId))).toEqual(new Set(jobIds));
    expect(executed.sort()).toEqual(runs.map((r) => r.id).sort());
    expect(maxRunning.get(ws.a)).toBe(limits.a); // reached, never exceeded
    expect(maxRunning.get(ws.b)).toBeLessThanOrEqual(limits.b);
    expect(maxDbRunning.get(ws.a)).toBeLessThanOrEqual(limits.a);
    expect(maxDbRunning.get(ws.b)).toBeLessThanOrEqual(limits.b);
    for (const w of perWorker.values()) expect(w.max).toBeLessThanOrEqual(3);
    expect(new Set(runs.map((r) => r.workerId))).toEqual(new Set(["worker-1", "worker-2"]));
  });
});

// A worker that is down for several fire times runs the job once on recovery, not once per
// missed fire: a BullMQ job scheduler keeps only its next delayed job, and computes the
// following one from "now" when that job is picked up.
import { describe, expect, vi } from "vitest";
import type { Job, Worker } from "bullmq";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger } from "@secondshift/logging";
import type { FireOutcome } from "./fire.ts";
import { createRunQueue, createScheduleQueue, type FireJobData, type RunQueue } from "./queues.ts";
import { createScheduleWorker, fireTime } from "./schedule-worker.ts";
import { syncSchedules } from "./sync-schedules.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

const conn = testQueueConnection();
const logger = createLogger({ name: "scheduler-test", level: "silent" });

const test = dbTest.extend(
  "queues",
  { scope: "file" },
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  ({}, { onCleanup }) => {
    const queues = { scheduleQueue: createScheduleQueue(conn), runQueue: createRunQueue(conn) };
    onCleanup(async () => {
      await queues.scheduleQueue.close();
      await queues.runQueue.close();
      await deletePrefix(testRedisUrl(), conn.prefix);
    });
    return queues;
  },
);

function startWorker(
  db: Db,
  runQueue: RunQueue,
  fires: { at: number; outcome: FireOutcome | null }[],
): Worker<FireJobData, FireOutcome | null> {
  const worker = createScheduleWorker({ ...conn, db, runQueue, logger });
  worker.on("completed", (job: Job<FireJobData, FireOutcome | null>, outcome) =>
    fires.push({ at: fireTime(job).getTime(), outcome }),
  );
  return worker;
}

const waitFor = (check: () => boolean, timeout: number) =>
  vi.waitUntil(check, { timeout, interval: 25 });

describe("missed fires", () => {
  test("runs once on recovery after several missed fire times", async ({
    db,
    queues: { scheduleQueue, runQueue },
  }) => {
    const workspaceId = await createWorkspace(db);
    const jobId = await createJob(db, {
      workspaceId,
      repositoryId: await createRepository(db, workspaceId),
      schedule: "* * * * * *",
    });
    await syncSchedules(db, scheduleQueue);

    const before: { at: number; outcome: FireOutcome | null }[] = [];
    const first = startWorker(db, runQueue, before);
    await waitFor(() => before.length >= 1, 10_000);
    await first.close(); // the worker goes down
    const downAt = Date.now();
    expect(before.length).toBeLessThanOrEqual(2);
    // Finished runs, so that the recovery fire is not skipped as an overlap.
    await db.run.updateMany({ where: { jobId }, data: { status: "SUCCEEDED" } });
    // At least two fire times pass with no worker: the pending fire and the one after it (plus
    // half a second). This is wall-clock time by nature, so the test polls the clock for it.
    const pendingFire = (await scheduleQueue.getJobScheduler(`job-${jobId}`))?.next;
    expect(pendingFire).toBeDefined();
    await vi.waitUntil(() => Date.now() > pendingFire! + 1_500, {
      timeout: 10_000,
      interval: 50,
    });

    const after: { at: number; outcome: FireOutcome | null }[] = [];
    const upAt = Date.now();
    const second = startWorker(db, runQueue, after);
    await waitFor(() => after.length >= 1, 10_000);
    // Past the backlog: a fire scheduled after the restart has been handled too, so any other
    // fire from the downtime would have been delivered before it.
    await waitFor(() => after.some((f) => f.at >= upAt), 10_000);
    await second.close();

    // Exactly one fire from the downtime was delivered, and it created a run.
    const missed = after.filter((f) => f.at < upAt);
    expect(missed).toHaveLength(1);
    const lastBefore = Math.max(...before.map((f) => f.at));
    expect(missed[0]?.at).toBeGreaterThan(lastBefore);
    expect(missed[0]?.at).toBeLessThan(downAt + 1_000);
    expect(missed[0]?.outcome?.outcome).toBe("created");
    const runs = await db.run.findMany({
      where: { jobId, scheduledFor: { gt: new Date(lastBefore), lt: new Date(upAt) } },
    });
    expect(runs).toHaveLength(1);
    // The scheduler carries on from now, not from the backlog.
    const scheduler = await scheduleQueue.getJobScheduler(`job-${jobId}`);
    expect(scheduler?.next).toBeGreaterThanOrEqual(upAt);
  });
});

// A worker that is down for several fire times runs the job once on recovery, not once per
// missed fire: a BullMQ job scheduler keeps only its next delayed job, and computes the
// following one from "now" when that job is picked up.
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Job, Worker } from "bullmq";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import type { Db } from "@secondshift/db";
import { createLogger } from "@secondshift/logging";
import type { FireOutcome } from "./fire.ts";
import {
  createRunQueue,
  createScheduleQueue,
  type FireJobData,
  type RunQueue,
  type ScheduleQueue,
} from "./queues.ts";
import { createScheduleWorker, fireTime } from "./schedule-worker.ts";
import { syncSchedules } from "./sync-schedules.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

let tdb: TestDatabase;
let db: Db;
let scheduleQueue: ScheduleQueue;
let runQueue: RunQueue;
const conn = testQueueConnection();
const logger = createLogger({ name: "scheduler-test", level: "silent" });

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  scheduleQueue = createScheduleQueue(conn);
  runQueue = createRunQueue(conn);
});

afterAll(async () => {
  await scheduleQueue.close();
  await runQueue.close();
  await deletePrefix(testRedisUrl(), conn.prefix);
  await tdb.drop();
});

function startWorker(
  fires: { at: number; outcome: FireOutcome | null }[],
): Worker<FireJobData, FireOutcome | null> {
  const worker = createScheduleWorker({ ...conn, db, runQueue, logger });
  worker.on("completed", (job: Job<FireJobData, FireOutcome | null>, outcome) =>
    fires.push({ at: fireTime(job).getTime(), outcome }),
  );
  return worker;
}

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await sleep(25);
  }
}

describe("missed fires", () => {
  it("runs once on recovery after several missed fire times", async () => {
    const workspaceId = await createWorkspace(db);
    const jobId = await createJob(db, {
      workspaceId,
      repositoryId: await createRepository(db, workspaceId),
      schedule: "* * * * * *",
    });
    await syncSchedules(db, scheduleQueue);

    const before: { at: number; outcome: FireOutcome | null }[] = [];
    const first = startWorker(before);
    await waitFor(() => before.length >= 1, 10_000);
    await first.close(); // the worker goes down
    const downAt = Date.now();
    expect(before.length).toBeLessThanOrEqual(2);
    // Finished runs, so that the recovery fire is not skipped as an overlap.
    await db.run.updateMany({ where: { jobId }, data: { status: "SUCCEEDED" } });
    await sleep(2_600); // at least two fire times pass with no worker

    const after: { at: number; outcome: FireOutcome | null }[] = [];
    const upAt = Date.now();
    const second = startWorker(after);
    await waitFor(() => after.length >= 1, 10_000);
    await sleep(300);
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

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@secondshift/db";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import {
  createRunQueue,
  createScheduleQueue,
  schedulerIdForJob,
  type RunQueue,
  type ScheduleQueue,
} from "./queues.ts";
import { createSyncQueue, type SyncQueue } from "./sync-queue.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";
import { createWorkspaceServices } from "./workspace-services.ts";

let tdb: TestDatabase;
let db: Db;
let runQueue: RunQueue;
let scheduleQueue: ScheduleQueue;
let syncQueue: SyncQueue;
const conn = testQueueConnection();

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  runQueue = createRunQueue(conn);
  scheduleQueue = createScheduleQueue(conn);
  syncQueue = createSyncQueue(conn);
});
afterAll(async () => {
  await Promise.all([runQueue.close(), scheduleQueue.close(), syncQueue.close()]);
  await deletePrefix(testRedisUrl(), conn.prefix);
  await tdb.drop();
});

describe("createWorkspaceServices (the queues behind run now, pause / resume, sync now)", () => {
  it("queues a run once under its own id, converges schedules, and deduplicates syncs", async () => {
    const services = createWorkspaceServices({ db, runQueue, scheduleQueue, syncQueue });
    const workspaceId = await createWorkspace(db);
    const repositoryId = await createRepository(db, workspaceId);
    const jobId = await createJob(db, { workspaceId, repositoryId });

    await services.enqueueRun({ runId: "run-1", workspaceId });
    await services.enqueueRun({ runId: "run-1", workspaceId });
    expect(await runQueue.count()).toBe(1);
    expect((await runQueue.getJob("run-1"))?.data).toEqual({ runId: "run-1", workspaceId });

    const ids = async () => (await scheduleQueue.getJobSchedulers()).map((s) => s.key);
    await services.syncSchedules(workspaceId);
    expect(await ids()).toContain(schedulerIdForJob(jobId));
    await db.job.update({ where: { id: jobId }, data: { enabled: false } });
    await services.syncSchedules(workspaceId);
    expect(await ids()).not.toContain(schedulerIdForJob(jobId));

    await services.requestSync({ workspaceId, repositoryId });
    await services.requestSync({ workspaceId, repositoryId });
    const waiting = await syncQueue.getWaiting();
    expect(waiting.map((j) => j.data)).toEqual([{ workspaceId, repositoryId }]);
  });
});

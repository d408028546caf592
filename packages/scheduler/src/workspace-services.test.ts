import { describe, expect } from "vitest";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createRunQueue, createScheduleQueue, schedulerIdForJob } from "./queues.ts";
import { createSyncQueue } from "./sync-queue.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";
import { createWorkspaceServices } from "./workspace-services.ts";

const conn = testQueueConnection();

const test = dbTest.extend(
  "queues",
  { scope: "file" },
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  ({}, { onCleanup }) => {
    const queues = {
      runQueue: createRunQueue(conn),
      scheduleQueue: createScheduleQueue(conn),
      syncQueue: createSyncQueue(conn),
    };
    onCleanup(async () => {
      await Promise.all(Object.values(queues).map((q) => q.close()));
      await deletePrefix(testRedisUrl(), conn.prefix);
    });
    return queues;
  },
);

describe("createWorkspaceServices (the queues behind run now, pause / resume, sync now)", () => {
  test("queues a run once under its own id, converges schedules, and deduplicates syncs", async ({
    db,
    queues: { runQueue, scheduleQueue, syncQueue },
  }) => {
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

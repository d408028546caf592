import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@secondshift/db";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { requestRepositorySync, setJobPaused } from "./job-controls.ts";
import { createScheduleQueue, schedulerIdForJob, type ScheduleQueue } from "./queues.ts";
import { syncSchedules } from "./sync-schedules.ts";
import { createSyncQueue, type SyncQueue } from "./sync-queue.ts";
import { createJob, createMember, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

let tdb: TestDatabase;
let db: Db;
let schedules: ScheduleQueue;
let syncs: SyncQueue;
const conn = testQueueConnection();

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  schedules = createScheduleQueue(conn);
  syncs = createSyncQueue(conn);
});
afterAll(async () => {
  await schedules.close();
  await syncs.close();
  await deletePrefix(testRedisUrl(), conn.prefix);
  await tdb.drop();
});

const schedulerIds = async () => (await schedules.getJobSchedulers()).map((s) => s.key);

describe("job controls", () => {
  it("[C02] an admin pauses and resumes a job's schedule; a viewer cannot; other workspaces' jobs are not found", async () => {
    const workspaceId = await createWorkspace(db);
    const repositoryId = await createRepository(db, workspaceId);
    const jobId = await createJob(db, { workspaceId, repositoryId });
    const admin = await createMember(db, workspaceId, "ADMIN");
    const viewer = await createMember(db, workspaceId, "VIEWER");
    await syncSchedules(db, schedules, { workspaceId });
    expect(await schedulerIds()).toContain(schedulerIdForJob(jobId));

    await expect(
      setJobPaused(db, schedules, { workspaceId, jobId, actor: { userId: viewer }, paused: true }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await schedulerIds()).toContain(schedulerIdForJob(jobId));

    await setJobPaused(db, schedules, {
      workspaceId,
      jobId,
      actor: { userId: admin },
      paused: true,
    });
    expect(await schedulerIds()).not.toContain(schedulerIdForJob(jobId));
    await setJobPaused(db, schedules, {
      workspaceId,
      jobId,
      actor: { userId: admin },
      paused: false,
    });
    expect(await schedulerIds()).toContain(schedulerIdForJob(jobId));
    const actions = await db.auditEvent.findMany({
      where: { workspaceId, targetId: jobId },
      orderBy: { createdAt: "asc" },
    });
    expect(actions.map((a) => a.action)).toEqual(["job.paused", "job.resumed"]);

    const other = await createWorkspace(db);
    const otherJob = await createJob(db, {
      workspaceId: other,
      repositoryId: await createRepository(db, other),
    });
    await expect(
      setJobPaused(db, schedules, {
        workspaceId,
        jobId: otherJob,
        actor: { userId: admin },
        paused: true,
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await db.job.findUniqueOrThrow({ where: { id: otherJob } })).enabled).toBe(true);
  });

  it("[C02] an admin asks for a repository sync; a viewer cannot; other workspaces' repositories are not found", async () => {
    const workspaceId = await createWorkspace(db);
    const repositoryId = await createRepository(db, workspaceId);
    const admin = await createMember(db, workspaceId, "ADMIN");
    const viewer = await createMember(db, workspaceId, "VIEWER");
    await expect(
      requestRepositorySync(db, syncs, { workspaceId, repositoryId, actor: { userId: viewer } }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const other = await createRepository(db, await createWorkspace(db));
    await expect(
      requestRepositorySync(db, syncs, {
        workspaceId,
        repositoryId: other,
        actor: { userId: admin },
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await syncs.getWaitingCount()).toBe(0);
    await requestRepositorySync(db, syncs, { workspaceId, repositoryId, actor: { userId: admin } });
    const [job] = await syncs.getWaiting();
    expect(job?.data).toEqual({ workspaceId, repositoryId });
  });
});

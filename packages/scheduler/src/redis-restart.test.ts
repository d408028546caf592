// Schedules survive a Redis restart when persistence (AOF) is on: a private redis-server with
// `--appendonly yes` is stopped and started again on the same data directory.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect } from "vitest";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger } from "@secondshift/logging";
import {
  createRunQueue,
  createScheduleQueue,
  schedulerIdForJob,
  type QueueConnection,
} from "./queues.ts";
import { createScheduleWorker } from "./schedule-worker.ts";
import { syncSchedules } from "./sync-schedules.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { freeLoopbackPort, startRedisServer, type OwnRedis } from "./testing/redis.ts";

// A data directory for a private redis-server; the server last started on it is stopped, and
// the directory removed, after the file.
const test = dbTest.extend(
  "ownRedis",
  { scope: "file" },
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  async ({}, { onCleanup }) => {
    const dir = await mkdtemp(join(tmpdir(), "ss-redis-"));
    let running: OwnRedis | undefined;
    onCleanup(async () => {
      await running?.stop();
      await rm(dir, { recursive: true, force: true });
    });
    return {
      start: async (port: number): Promise<OwnRedis> =>
        (running = await startRedisServer(dir, port)),
    };
  },
);

describe("Redis restart", () => {
  test("keeps job schedulers and their pending fire when Redis persists with AOF", async ({
    db,
    ownRedis,
  }) => {
    const port = await freeLoopbackPort();
    const redis = await ownRedis.start(port);
    const conn: QueueConnection = {
      connection: { url: redis.url, maxRetriesPerRequest: null },
      prefix: "ss",
    };

    const workspaceId = await createWorkspace(db);
    const repositoryId = await createRepository(db, workspaceId);
    const daily = await createJob(db, {
      workspaceId,
      repositoryId,
      schedule: "0 9 * * *",
      timezone: "Europe/Berlin",
    });
    const everySecond = await createJob(db, { workspaceId, repositoryId, schedule: "* * * * * *" });
    let queue = createScheduleQueue(conn);
    await syncSchedules(db, queue);
    const beforeRestart = await queue.getJobSchedulers(0, -1, true);
    await queue.close();

    await redis.stop();
    await ownRedis.start(port); // the same port and data directory

    queue = createScheduleQueue(conn);
    const afterRestart = await queue.getJobSchedulers(0, -1, true);
    expect(afterRestart.map((s) => s.key).sort()).toEqual(
      [schedulerIdForJob(daily), schedulerIdForJob(everySecond)].sort(),
    );
    expect(afterRestart.find((s) => s.key === schedulerIdForJob(daily))).toMatchObject({
      pattern: "0 9 * * *",
      tz: "Europe/Berlin",
    });
    expect(afterRestart.find((s) => s.key === schedulerIdForJob(daily))?.next).toBe(
      beforeRestart.find((s) => s.key === schedulerIdForJob(daily))?.next,
    );
    // A worker starting after the restart finds nothing to change…
    expect(await syncSchedules(db, queue)).toMatchObject({ created: [], updated: [], removed: [] });

    // …and the persisted scheduler still fires.
    const runQueue = createRunQueue(conn);
    const worker = createScheduleWorker({
      ...conn,
      db,
      runQueue,
      logger: createLogger({ name: "test", level: "silent" }),
    });
    const deadline = Date.now() + 10_000;
    while ((await db.run.count({ where: { jobId: everySecond } })) === 0 && Date.now() < deadline)
      await sleep(50);
    await worker.close();
    await runQueue.close();
    await queue.close();
    expect(
      await db.run.count({ where: { jobId: everySecond, trigger: "SCHEDULE" } }),
    ).toBeGreaterThanOrEqual(1);
  });
});

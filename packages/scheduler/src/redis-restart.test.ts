// Schedules survive a Redis restart when persistence (AOF) is on: a private redis-server with
// `--appendonly yes` is stopped and started again on the same data directory.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import type { Db } from "@secondshift/db";
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

let tdb: TestDatabase;
let db: Db;
let dir: string;
let redis: OwnRedis | undefined;

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  dir = await mkdtemp(join(tmpdir(), "ss-redis-"));
});

afterAll(async () => {
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
  await tdb.drop();
});

describe("Redis restart", () => {
  it("keeps job schedulers and their pending fire when Redis persists with AOF", async () => {
    const port = await freeLoopbackPort();
    redis = await startRedisServer(dir, port);
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
    redis = await startRedisServer(dir, port);

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

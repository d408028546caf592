// The run and queue gauges at scrape time: runs by status from the database, and per queue the
// job counts by state and the oldest waiting job's wait.
import { seedRun, seedWorkspace } from "@secondshift/db/testing";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { Registry } from "prom-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerQueueMetrics } from "./metrics.ts";
import { addRunToQueue, createRunQueue, type RunQueue } from "./queues.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

let t: TestDatabase;
let queue: RunQueue;
const connection = testQueueConnection();

beforeAll(async () => {
  t = await createTestDatabase();
  queue = createRunQueue(connection);
});
afterAll(async () => {
  await queue.close();
  await deletePrefix(testRedisUrl(), connection.prefix);
  await t.drop();
});

const value = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("queue metrics", () => {
  it("reports runs by status, jobs by state and the oldest wait when scraped", async () => {
    const registry = new Registry();
    registerQueueMetrics(registry, { db: t.db, queues: { runs: queue } });
    const empty = await registry.metrics();
    expect(value(empty, 'secondshift_runs{status="QUEUED"}')).toBe(0);
    expect(value(empty, 'secondshift_queue_jobs{queue="runs",state="waiting"}')).toBe(0);
    expect(value(empty, 'secondshift_queue_oldest_wait_seconds{queue="runs"}')).toBe(0);

    const seed = await seedWorkspace(t.db);
    const queued = [await seedRun(t.db, seed), await seedRun(t.db, seed)];
    await seedRun(t.db, seed, { status: "FAILED" });
    for (const run of queued)
      await addRunToQueue(queue, { runId: run.id, workspaceId: run.workspaceId });
    await new Promise((r) => setTimeout(r, 1_100));

    const text = await registry.metrics();
    expect(value(text, 'secondshift_runs{status="QUEUED"}')).toBe(2);
    expect(value(text, 'secondshift_runs{status="FAILED"}')).toBe(1);
    expect(value(text, 'secondshift_runs{status="RUNNING"}')).toBe(0);
    expect(value(text, 'secondshift_queue_jobs{queue="runs",state="waiting"}')).toBe(2);
    expect(value(text, 'secondshift_queue_jobs{queue="runs",state="active"}')).toBe(0);
    const wait = value(text, 'secondshift_queue_oldest_wait_seconds{queue="runs"}');
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThan(30);
  });
});

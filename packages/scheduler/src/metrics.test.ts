// The run and queue gauges at scrape time: runs by status from the database, and per queue the
// job counts by state and the oldest waiting job's wait.
import { seedRun } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { Registry } from "prom-client";
import { describe, expect, vi } from "vitest";
import { registerQueueMetrics } from "./metrics.ts";
import { addRunToQueue, createRunQueue } from "./queues.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

const connection = testQueueConnection();

const test = dbTest.extend(
  "queue",
  { scope: "file" },
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  ({}, { onCleanup }) => {
    const queue = createRunQueue(connection);
    onCleanup(async () => {
      await queue.close();
      await deletePrefix(testRedisUrl(), connection.prefix);
    });
    return queue;
  },
);

const value = (text: string, series: string) => {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe("queue metrics", () => {
  test("reports runs by status, jobs by state and the oldest wait when scraped", async ({
    db,
    seed,
    queue,
  }) => {
    const registry = new Registry();
    registerQueueMetrics(registry, { db, queues: { runs: queue } });
    const empty = await registry.metrics();
    expect(value(empty, 'secondshift_runs{status="QUEUED"}')).toBe(0);
    expect(value(empty, 'secondshift_queue_jobs{queue="runs",state="waiting"}')).toBe(0);
    expect(value(empty, 'secondshift_queue_oldest_wait_seconds{queue="runs"}')).toBe(0);

    const queued = [await seedRun(db, seed), await seedRun(db, seed)];
    await seedRun(db, seed, { status: "FAILED" });
    for (const run of queued)
      await addRunToQueue(queue, { runId: run.id, workspaceId: run.workspaceId });
    // The wait is wall-clock time by nature: poll the clock until the oldest job is a second old.
    const [oldest] = await queue.getJobs(["waiting"], 0, 0, true);
    await vi.waitUntil(() => Date.now() >= oldest!.timestamp + 1_000, {
      timeout: 5_000,
      interval: 20,
    });

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

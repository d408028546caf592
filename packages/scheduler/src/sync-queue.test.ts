import { afterAll, describe, expect, it, vi } from "vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { createSyncQueue, createSyncWorker, requestSync, type SyncJobData } from "./sync-queue.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

const conn = testQueueConnection();
const queue = createSyncQueue(conn);
afterAll(async () => {
  await queue.close();
  await deletePrefix(testRedisUrl(), conn.prefix);
});

describe("sync queue", () => {
  it("keeps one waiting sync per repository and never runs two of one repository at once", async () => {
    const target = { workspaceId: "ws", repositoryId: "repo-1" };
    // Three pushes before any worker runs: one waiting sync.
    await requestSync(queue, target);
    await requestSync(queue, target);
    await requestSync(queue, target);
    await requestSync(queue, { workspaceId: "ws", repositoryId: "repo-2" });
    expect(await queue.getWaitingCount()).toBe(2);

    const running = new Map<string, number>();
    const seen: SyncJobData[] = [];
    let overlap = false;
    let release: () => void = () => undefined;
    const firstSyncHeld = new Promise<void>((r) => (release = r));
    let pushedDuring = false;
    let held = false;
    const worker = createSyncWorker({
      ...conn,
      concurrency: 4,
      logger: createLogger({ name: "t", destination: createMemorySink().stream }),
      sync: async (t) => {
        running.set(t.repositoryId, (running.get(t.repositoryId) ?? 0) + 1);
        if ((running.get(t.repositoryId) ?? 0) > 1) overlap = true;
        seen.push(t);
        if (t.repositoryId === "repo-1" && !pushedDuring) {
          pushedDuring = true;
          // A push while repo-1 syncs is kept, and runs after this one.
          await requestSync(queue, target);
          await requestSync(queue, target);
          held = true;
          await firstSyncHeld;
        }
        running.set(t.repositoryId, (running.get(t.repositoryId) ?? 1) - 1);
      },
    });
    const wait = { timeout: 20_000, interval: 50 };
    const counts = () => queue.getJobCounts("waiting", "delayed", "active", "completed", "failed");
    // The first repo-1 sync is held after the pushes during it were taken; the worker has a free
    // slot and has finished repo-2, nothing waits and only the held sync is active: a second
    // repo-1 sync has had every chance to start.
    await vi.waitFor(async () => {
      expect(held).toBe(true);
      expect(await counts()).toEqual({
        waiting: 0,
        delayed: 0,
        active: 1,
        completed: 1,
        failed: 0,
      });
    }, wait);
    expect(seen.filter((s) => s.repositoryId === "repo-1")).toHaveLength(1);
    release();
    // The queue has drained: the kept push ran after the first sync, and nothing followed it.
    await vi.waitFor(async () => {
      expect(await counts()).toEqual({
        waiting: 0,
        delayed: 0,
        active: 0,
        completed: 3,
        failed: 0,
      });
    }, wait);
    await worker.close();
    expect(overlap).toBe(false);
    expect(seen.filter((s) => s.repositoryId === "repo-1")).toHaveLength(2);
    expect(seen.filter((s) => s.repositoryId === "repo-2")).toHaveLength(1);
  });
});

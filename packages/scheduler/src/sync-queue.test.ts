import { afterAll, describe, expect, it } from "vitest";
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
          await firstSyncHeld;
        }
        running.set(t.repositoryId, (running.get(t.repositoryId) ?? 1) - 1);
      },
    });
    const deadline = Date.now() + 20_000;
    while (seen.filter((s) => s.repositoryId === "repo-1").length < 1 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    release();
    while (seen.filter((s) => s.repositoryId === "repo-1").length < 2 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    await worker.close();
    expect(overlap).toBe(false);
    expect(seen.filter((s) => s.repositoryId === "repo-1")).toHaveLength(2);
    expect(seen.filter((s) => s.repositoryId === "repo-2")).toHaveLength(1);
  });
});

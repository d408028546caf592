import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, vi } from "vitest";
import type { Db, RunModel } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { addRunToQueue, createRunQueue } from "./queues.ts";
import {
  createRunQueueWorker,
  EXECUTOR_FAILED_ERROR,
  NO_RESULT_ERROR,
  type ExecuteContext,
} from "./run-worker.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

const conn = testQueueConnection();
const sink = createMemorySink();
type Behaviour = (run: RunModel, ctx: ExecuteContext) => Promise<void>;
const behaviours = new Map<string, Behaviour>();
const executed: string[] = [];

const test = dbTest
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("runQueue", { scope: "file" }, ({}, { onCleanup }) => {
    const runQueue = createRunQueue(conn);
    onCleanup(async () => {
      await runQueue.close();
      await deletePrefix(testRedisUrl(), conn.prefix);
    });
    return runQueue;
  })
  .extend("tenant", { scope: "file" }, async ({ db }) => {
    const workspaceId = await createWorkspace(db, 5);
    return { workspaceId, repositoryId: await createRepository(db, workspaceId) };
  })
  // The worker under test runs for the whole file; queuedRun queues a run and registers what
  // the executor does with it.
  .extend("queuedRun", { scope: "file" }, ({ db, runQueue, tenant }, { onCleanup }) => {
    const worker = createRunQueueWorker({
      ...conn,
      db,
      concurrency: 2,
      heartbeatIntervalMs: 50,
      logger: createLogger({ name: "run-worker-test", destination: sink.stream }),
      execute: async (run, ctx) => {
        executed.push(run.id);
        await behaviours.get(run.id)?.(run, ctx);
      },
    });
    onCleanup(() => worker.close());
    return async (behaviour?: Behaviour, status: "QUEUED" | "CANCELLED" = "QUEUED") => {
      const jobId = await createJob(db, tenant);
      const run = await db.run.create({
        data: {
          workspaceId: tenant.workspaceId,
          jobId,
          trigger: "MANUAL",
          budgetTokens: 1,
          status,
        },
      });
      if (behaviour) behaviours.set(run.id, behaviour);
      await addRunToQueue(runQueue, { runId: run.id, workspaceId: tenant.workspaceId });
      return run.id;
    };
  });

async function settled(db: Db, runId: string): Promise<RunModel> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.status !== "QUEUED" && run.status !== "RUNNING") return run;
    if (Date.now() > deadline) throw new Error(`run still ${run.status}`);
    await sleep(25);
  }
}

describe("createRunQueueWorker", () => {
  test("never leaves a run RUNNING: a throwing executor fails it with a fixed message", async ({
    db,
    queuedRun,
  }) => {
    const runId = await queuedRun(() =>
      Promise.reject(new Error("upstream said sk-planted-detail")),
    );
    const run = await settled(db, runId);
    expect(run).toMatchObject({
      status: "FAILED",
      error: EXECUTOR_FAILED_ERROR,
      workerId: expect.any(String) as unknown,
    });
    expect(run.error).not.toContain("sk-planted");
  });

  test("fails a run its executor returned from without recording a result", async ({
    db,
    queuedRun,
  }) => {
    const runId = await queuedRun(() => Promise.resolve());
    expect(await settled(db, runId)).toMatchObject({ status: "FAILED", error: NO_RESULT_ERROR });
  });

  test("keeps the executor's result", async ({ db, queuedRun }) => {
    const runId = await queuedRun(async (run) => {
      await db.run.update({
        where: { id: run.id },
        data: { status: "SUCCEEDED", finishedAt: new Date() },
      });
    });
    expect((await settled(db, runId)).status).toBe("SUCCEEDED");
  });

  test("does not start a run that is no longer queued (e.g. cancelled while waiting)", async ({
    db,
    runQueue,
    queuedRun,
  }) => {
    const runId = await queuedRun(undefined, "CANCELLED");
    // The worker has taken the queue job and dropped it.
    await vi.waitUntil(async () => (await runQueue.getJobState(runId)) === "completed", {
      timeout: 10_000,
      interval: 25,
    });
    expect(executed).not.toContain(runId);
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("CANCELLED");
  });

  test("heartbeats while executing and aborts the executor when the run is taken away", async ({
    db,
    queuedRun,
  }) => {
    let aborted = false;
    const runId = await queuedRun(async (run, { signal, workerId }) => {
      const first = (await db.run.findUniqueOrThrow({ where: { id: run.id } })).heartbeatAt;
      await vi.waitFor(
        async () => {
          const later = (await db.run.findUniqueOrThrow({ where: { id: run.id } })).heartbeatAt;
          expect(later!.getTime()).toBeGreaterThan(first!.getTime());
        },
        { timeout: 5_000, interval: 25 },
      );
      // Another worker's recoverer declares it lost:
      await db.run.update({
        where: { id: run.id },
        data: { status: "FAILED", error: "worker lost" },
      });
      await new Promise<void>((resolve) =>
        signal.addEventListener("abort", () => resolve(), { once: true }),
      );
      aborted = signal.aborted;
      expect(workerId).toBe(run.workerId);
    });
    const run = await settled(db, runId);
    const deadline = Date.now() + 5_000;
    while (!aborted && Date.now() < deadline) await sleep(25);
    expect(aborted).toBe(true);
    expect(run.error).toBe("worker lost");
  });
});

import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Worker } from "bullmq";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import type { Db, RunModel } from "@secondshift/db";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { addRunToQueue, createRunQueue, type RunQueue } from "./queues.ts";
import {
  createRunQueueWorker,
  EXECUTOR_FAILED_ERROR,
  NO_RESULT_ERROR,
  type ExecuteContext,
} from "./run-worker.ts";
import { createJob, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

let tdb: TestDatabase;
let db: Db;
let runQueue: RunQueue;
let worker: Worker;
let workspaceId: string;
let repositoryId: string;
const conn = testQueueConnection();
const sink = createMemorySink();
const behaviours = new Map<string, (run: RunModel, ctx: ExecuteContext) => Promise<void>>();
const executed: string[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  runQueue = createRunQueue(conn);
  workspaceId = await createWorkspace(db, 5);
  repositoryId = await createRepository(db, workspaceId);
  worker = createRunQueueWorker({
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
});

afterAll(async () => {
  await worker.close();
  await runQueue.close();
  await deletePrefix(testRedisUrl(), conn.prefix);
  await tdb.drop();
});

async function queuedRun(
  behaviour?: (run: RunModel, ctx: ExecuteContext) => Promise<void>,
  status: "QUEUED" | "CANCELLED" = "QUEUED",
) {
  const jobId = await createJob(db, { workspaceId, repositoryId });
  const run = await db.run.create({
    data: { workspaceId, jobId, trigger: "MANUAL", budgetTokens: 1, status },
  });
  if (behaviour) behaviours.set(run.id, behaviour);
  await addRunToQueue(runQueue, { runId: run.id, workspaceId });
  return run.id;
}

async function settled(runId: string): Promise<RunModel> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const run = await db.run.findUniqueOrThrow({ where: { id: runId } });
    if (run.status !== "QUEUED" && run.status !== "RUNNING") return run;
    if (Date.now() > deadline) throw new Error(`run still ${run.status}`);
    await sleep(25);
  }
}

describe("createRunQueueWorker", () => {
  it("never leaves a run RUNNING: a throwing executor fails it with a fixed message", async () => {
    const runId = await queuedRun(() =>
      Promise.reject(new Error("upstream said sk-planted-detail")),
    );
    const run = await settled(runId);
    expect(run).toMatchObject({
      status: "FAILED",
      error: EXECUTOR_FAILED_ERROR,
      workerId: expect.any(String) as unknown,
    });
    expect(run.error).not.toContain("sk-planted");
  });

  it("fails a run its executor returned from without recording a result", async () => {
    const runId = await queuedRun(() => Promise.resolve());
    expect(await settled(runId)).toMatchObject({ status: "FAILED", error: NO_RESULT_ERROR });
  });

  it("keeps the executor's result", async () => {
    const runId = await queuedRun(async (run) => {
      await db.run.update({
        where: { id: run.id },
        data: { status: "SUCCEEDED", finishedAt: new Date() },
      });
    });
    expect((await settled(runId)).status).toBe("SUCCEEDED");
  });

  it("does not start a run that is no longer queued (e.g. cancelled while waiting)", async () => {
    const runId = await queuedRun(undefined, "CANCELLED");
    await sleep(500);
    expect(executed).not.toContain(runId);
    expect((await db.run.findUniqueOrThrow({ where: { id: runId } })).status).toBe("CANCELLED");
  });

  it("heartbeats while executing and aborts the executor when the run is taken away", async () => {
    let aborted = false;
    const runId = await queuedRun(async (run, { signal, workerId }) => {
      const first = (await db.run.findUniqueOrThrow({ where: { id: run.id } })).heartbeatAt;
      await sleep(200);
      const later = (await db.run.findUniqueOrThrow({ where: { id: run.id } })).heartbeatAt;
      expect(later!.getTime()).toBeGreaterThan(first!.getTime());
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
    const run = await settled(runId);
    const deadline = Date.now() + 5_000;
    while (!aborted && Date.now() < deadline) await sleep(25);
    expect(aborted).toBe(true);
    expect(run.error).toBe("worker lost");
  });
});

// The outputs queue: one job per output however often it is added, a worker that applies it,
// and recovery that puts back what a crash left READY, APPROVED or APPLYING (ended runs only).
import { describe, expect, vi } from "vitest";
import type { Db, OutputState, RunStatus } from "@secondshift/db";
import { seedRun, type SeededWorkspace } from "@secondshift/db/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import {
  addOutputToQueue,
  createOutputQueue,
  createOutputWorker,
  outputJobId,
  requeueOutputs,
  type OutputJobData,
} from "./output-queue.ts";
import { createRunQueue, createScheduleQueue } from "./queues.ts";
import { createSyncQueue } from "./sync-queue.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";
import { createWorkspaceServices } from "./workspace-services.ts";

const test = dbTest.extend(
  "conn",
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  ({}, { onCleanup }) => {
    const conn = testQueueConnection();
    onCleanup(() => deletePrefix(testRedisUrl(), conn.prefix));
    return conn;
  },
);

let seq = 0;
async function output(db: Db, seed: SeededWorkspace, state: OutputState, runStatus: RunStatus) {
  const run = await seedRun(db, seed, { status: runStatus });
  return db.runOutput.create({
    data: {
      workspaceId: seed.workspaceId,
      runId: run.id,
      jobId: seed.jobId,
      seq: seq++,
      kind: "comment",
      state,
      payload: { number: 1, body: "hi" },
    },
  });
}

describe("outputs queue", () => {
  test("an output is queued once under its own id, also through the workspace services", async ({
    db,
    conn,
  }) => {
    const queue = createOutputQueue(conn);
    const others = [createRunQueue(conn), createScheduleQueue(conn), createSyncQueue(conn)];
    const [runQueue, scheduleQueue, syncQueue] = others as [
      ReturnType<typeof createRunQueue>,
      ReturnType<typeof createScheduleQueue>,
      ReturnType<typeof createSyncQueue>,
    ];
    const services = createWorkspaceServices({
      db,
      runQueue,
      scheduleQueue,
      syncQueue,
      outputQueue: queue,
    });
    const data = { outputId: "out-1", workspaceId: "ws-1" };
    await addOutputToQueue(queue, data);
    await services.enqueueOutputApply!(data);
    await services.enqueueOutputApply!(data);
    expect(await queue.count()).toBe(1);
    expect((await queue.getJob(outputJobId("out-1")))?.data).toEqual(data);
    // A finished job (the output was held again after its first attempt) is replaced, so a
    // second approval is applied without waiting for recovery.
    const worker = createOutputWorker({
      ...conn,
      logger: createLogger({ name: "t", destination: createMemorySink().stream }),
      apply: () => Promise.resolve(),
    });
    const state = () => queue.getJob(outputJobId("out-1")).then((j) => j?.getState());
    for (let i = 0; i < 100 && (await state()) !== "completed"; i++)
      await new Promise((r) => setTimeout(r, 50));
    await worker.close();
    expect(await state()).toBe("completed");
    await services.enqueueOutputApply!(data);
    expect(await (await queue.getJob(outputJobId("out-1")))?.getState()).toBe("waiting");
    // Without an outputs queue the port is absent, so callers know approvals wait for recovery.
    const without = createWorkspaceServices({ db, runQueue, scheduleQueue, syncQueue });
    expect("enqueueOutputApply" in without).toBe(false);
    await Promise.all([queue.close(), ...others.map((q) => q.close())]);
  });

  test("the worker applies each output once; recovery re-adds what is still applicable", async ({
    db,
    seed,
    conn,
  }) => {
    const queue = createOutputQueue(conn);
    const ready = await output(db, seed, "READY", "SUCCEEDED");
    const approved = await output(db, seed, "APPROVED", "FAILED");
    const crashed = await output(db, seed, "APPLYING", "TIMED_OUT");
    await output(db, seed, "READY", "RUNNING"); // its run has not ended
    await output(db, seed, "HELD", "SUCCEEDED");
    await output(db, seed, "APPLIED", "SUCCEEDED");
    const mine = (ids: string[]) =>
      ids.filter((id) => [ready.id, approved.id, crashed.id].includes(id));

    expect(await requeueOutputs(db, queue)).toBe(3);
    expect(await requeueOutputs(db, queue)).toBe(0); // their jobs are waiting
    const jobs = await queue.getJobs(["waiting"]);
    expect(mine(jobs.map((j) => j.data.outputId)).sort()).toEqual(
      [ready.id, approved.id, crashed.id].sort(),
    );

    const applied: OutputJobData[] = [];
    const worker = createOutputWorker({
      ...conn,
      logger: createLogger({ name: "t", destination: createMemorySink().stream }),
      apply: async (data) => {
        applied.push(data);
        // The crashed one stays APPLYING (say GitHub was down); the others are done.
        if (data.outputId !== crashed.id)
          await db.runOutput.update({ where: { id: data.outputId }, data: { state: "APPLIED" } });
      },
    });
    await vi.waitFor(() => expect(applied).toHaveLength(3), { timeout: 20_000, interval: 50 });
    await vi.waitFor(async () => expect(await queue.getCompletedCount()).toBe(3), {
      timeout: 20_000,
      interval: 50,
    });
    // A completed job blocks its id; recovery removes it and re-adds only the unfinished one.
    expect(await requeueOutputs(db, queue)).toBe(1);
    await vi.waitFor(() => expect(applied).toHaveLength(4), { timeout: 20_000, interval: 50 });
    expect(applied.at(-1)).toEqual({ outputId: crashed.id, workspaceId: seed.workspaceId });
    await worker.close();
    await queue.close();
  });
});

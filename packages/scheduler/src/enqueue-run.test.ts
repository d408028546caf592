import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import type { Db } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { enqueueRun } from "./enqueue-run.ts";
import { createRunQueue, type RunQueue } from "./queues.ts";
import { createJob, createMember, createRepository, createWorkspace } from "./testing/fixtures.ts";
import { deletePrefix, testQueueConnection, testRedisUrl } from "./testing/redis.ts";

let tdb: TestDatabase;
let db: Db;
let runQueue: RunQueue;
const conn = testQueueConnection();

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  runQueue = createRunQueue(conn);
});

afterAll(async () => {
  await runQueue.close();
  await deletePrefix(testRedisUrl(), conn.prefix);
  await tdb.drop();
});

async function setup() {
  const workspaceId = await createWorkspace(db);
  const repositoryId = await createRepository(db, workspaceId);
  const jobId = await createJob(db, { workspaceId, repositoryId, enabled: false });
  return { workspaceId, repositoryId, jobId };
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("enqueueRun (run now)", () => {
  it("refuses viewers and non-members, and queues nothing", async () => {
    const { workspaceId, jobId } = await setup();
    const viewer = await createMember(db, workspaceId, "VIEWER");
    const outsider = await createMember(db, await createWorkspace(db), "OWNER");
    for (const userId of [viewer, outsider]) {
      const error = await rejection(
        enqueueRun(db, runQueue, { workspaceId, jobId, actor: { userId } }),
      );
      expect(error).toMatchObject({ code: "FORBIDDEN", reason: "ROLE_CANNOT_RUN" });
    }
    expect(await db.run.count({ where: { jobId } })).toBe(0);
    expect(await runQueue.count()).toBe(0);
  });

  it("lets an admin or owner run an approved (even paused) job once at a time, audited", async () => {
    const { workspaceId, jobId } = await setup();
    const admin = await createMember(db, workspaceId, "ADMIN");
    const owner = await createMember(db, workspaceId, "OWNER");
    const { runId } = await enqueueRun(db, runQueue, {
      workspaceId,
      jobId,
      actor: { userId: admin },
    });
    expect(await db.run.findUnique({ where: { id: runId } })).toMatchObject({
      trigger: "MANUAL",
      status: "QUEUED",
      scheduledFor: null,
    });
    expect((await runQueue.getJob(runId))?.data).toEqual({ runId, workspaceId });
    expect(
      await db.auditEvent.findFirst({ where: { workspaceId, action: "run.requested" } }),
    ).toMatchObject({
      actorType: "USER",
      actorId: admin,
      targetType: "run",
      targetId: runId,
    });

    const busy = await rejection(
      enqueueRun(db, runQueue, { workspaceId, jobId, actor: { userId: owner } }),
    );
    expect(busy).toMatchObject({ code: "CONFLICT", reason: "RUN_ALREADY_ACTIVE" });
    await db.run.update({ where: { id: runId }, data: { status: "SUCCEEDED" } });
    const second = await enqueueRun(db, runQueue, { workspaceId, jobId, actor: { userId: owner } });
    expect(second.runId).not.toBe(runId);
  });

  it("refuses a job that is not approved, removed, or in another workspace", async () => {
    const { workspaceId, repositoryId } = await setup();
    const owner = await createMember(db, workspaceId, "OWNER");
    const pending = await createJob(db, { workspaceId, repositoryId, status: "NEEDS_APPROVAL" });
    expect(
      await rejection(
        enqueueRun(db, runQueue, { workspaceId, jobId: pending, actor: { userId: owner } }),
      ),
    ).toMatchObject({
      code: "PRECONDITION_FAILED",
      reason: "JOB_NOT_APPROVED",
    });
    const removed = await createJob(db, { workspaceId, repositoryId });
    await db.job.update({
      where: { id: removed },
      data: { status: "REMOVED", removedAt: new Date() },
    });
    expect(
      await rejection(
        enqueueRun(db, runQueue, { workspaceId, jobId: removed, actor: { userId: owner } }),
      ),
    ).toMatchObject({
      code: "NOT_FOUND",
    });
    const foreign = await setup();
    expect(
      await rejection(
        enqueueRun(db, runQueue, { workspaceId, jobId: foreign.jobId, actor: { userId: owner } }),
      ),
    ).toMatchObject({
      code: "NOT_FOUND",
      reason: "JOB_NOT_FOUND",
    });
    expect(
      await db.run.count({ where: { jobId: { in: [pending, removed, foreign.jobId] } } }),
    ).toBe(0);
  });
});

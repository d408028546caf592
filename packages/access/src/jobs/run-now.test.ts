import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { AppError } from "@secondshift/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  actorContext,
  recordingServices,
  seedJob,
  seedTenant,
  type Tenant,
} from "../testing/index.ts";
import { runNow } from "./run-now.ts";

let t: TestDatabase;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
  b = await seedTenant(t.db, "other");
});
afterAll(async () => t?.drop());

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const as = (userId: string, services = recordingServices()) =>
  actorContext(t.db, a, userId, { services });

describe("runNow", () => {
  it("[C02] refuses a viewer, [P05] and a non-member finds no workspace; nothing is queued", async () => {
    const jobId = await seedJob(t.db, a, { enabled: false });
    const services = recordingServices();
    expect(await rejection(runNow(as(a.viewerId, services), { jobId }))).toMatchObject({
      code: "FORBIDDEN",
      reason: "ROLE_NOT_ALLOWED",
    });
    expect(await rejection(runNow(as(b.ownerId, services), { jobId }))).toMatchObject({
      code: "NOT_FOUND",
      reason: "WORKSPACE_NOT_FOUND",
    });
    expect(await t.db.run.count({ where: { jobId } })).toBe(0);
    expect(services.calls).toEqual([]);
  });

  it("lets an admin or owner run an approved (even paused) job once at a time, audited", async () => {
    const jobId = await seedJob(t.db, a, { enabled: false });
    const services = recordingServices();
    const { runId } = await runNow(as(a.adminId, services), { jobId });
    expect(await t.db.run.findUnique({ where: { id: runId } })).toMatchObject({
      trigger: "MANUAL",
      status: "QUEUED",
      scheduledFor: null,
    });
    expect(services.calls).toEqual([
      { name: "enqueueRun", arg: { runId, workspaceId: a.workspaceId } },
    ]);
    expect(
      await t.db.auditEvent.findFirst({ where: { action: "run.requested", targetId: runId } }),
    ).toMatchObject({
      workspaceId: a.workspaceId,
      actorType: "USER",
      actorId: a.adminId,
      targetType: "Run",
      outcome: "queued",
    });

    const busy = await rejection(runNow(as(a.ownerId), { jobId }));
    expect(busy).toMatchObject({ code: "CONFLICT", reason: "RUN_ALREADY_ACTIVE" });
    await t.db.run.update({ where: { id: runId }, data: { status: "SUCCEEDED" } });
    const second = await runNow(as(a.ownerId), { jobId });
    expect(second.runId).not.toBe(runId);
  });

  it("never stacks two active runs when run-now is clicked twice at once", async () => {
    const jobId = await seedJob(t.db, a);
    const results = await Promise.allSettled([
      runNow(as(a.ownerId), { jobId }),
      runNow(as(a.adminId), { jobId }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.run.count({ where: { jobId } })).toBe(1);
  });

  it("[P05] refuses a job that is not approved, removed, or in another workspace", async () => {
    const pending = await seedJob(t.db, a, { status: "NEEDS_APPROVAL" });
    expect(await rejection(runNow(as(a.ownerId), { jobId: pending }))).toMatchObject({
      code: "PRECONDITION_FAILED",
      reason: "JOB_NOT_APPROVED",
    });
    const removed = await seedJob(t.db, a);
    await t.db.job.update({
      where: { id: removed },
      data: { status: "REMOVED", removedAt: new Date() },
    });
    expect(await rejection(runNow(as(a.ownerId), { jobId: removed }))).toMatchObject({
      code: "NOT_FOUND",
    });
    const foreign = await seedJob(t.db, b);
    expect(await rejection(runNow(as(a.ownerId), { jobId: foreign }))).toMatchObject({
      code: "NOT_FOUND",
      reason: "JOB_NOT_FOUND",
    });
    expect(await t.db.run.count({ where: { jobId: { in: [pending, removed, foreign] } } })).toBe(0);
  });

  it("says clearly when the server has no queue wired, and creates no run", async () => {
    const jobId = await seedJob(t.db, a);
    const error = await rejection(runNow(actorContext(t.db, a, a.ownerId), { jobId }));
    expect(error).toMatchObject({ code: "INTERNAL", reason: "SERVICES_NOT_WIRED" });
    expect(await t.db.run.count({ where: { jobId } })).toBe(0);
  });
});

import { dbTest } from "@secondshift/db/testing/vitest";
import { AppError } from "@secondshift/errors";
import { describe, expect } from "vitest";
import { actorContext, recordingServices, seedJob, seedTenant } from "../testing/index.ts";
import { runNow } from "./run-now.ts";

const test = dbTest
  .extend("tenants", { scope: "file" }, async ({ db }) => {
    const a = await seedTenant(db, "acme");
    const b = await seedTenant(db, "other");
    return { a, b };
  })
  /** The context a member of tenant `a` acts in. */
  .extend(
    "as",
    ({ db, tenants: { a } }) =>
      (userId: string, services = recordingServices()) =>
        actorContext(db, a, userId, { services }),
  );

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("runNow", () => {
  test("[C02] refuses a viewer, [P05] and a non-member finds no workspace; nothing is queued", async ({
    db,
    as,
    tenants: { a, b },
  }) => {
    const jobId = await seedJob(db, a, { enabled: false });
    const services = recordingServices();
    expect(await rejection(runNow(as(a.viewerId, services), { jobId }))).toMatchObject({
      code: "FORBIDDEN",
      reason: "ROLE_NOT_ALLOWED",
    });
    expect(await rejection(runNow(as(b.ownerId, services), { jobId }))).toMatchObject({
      code: "NOT_FOUND",
      reason: "WORKSPACE_NOT_FOUND",
    });
    expect(await db.run.count({ where: { jobId } })).toBe(0);
    expect(services.calls).toEqual([]);
  });

  test("lets an admin or owner run an approved (even paused) job once at a time, audited", async ({
    db,
    as,
    tenants: { a },
  }) => {
    const jobId = await seedJob(db, a, { enabled: false });
    const services = recordingServices();
    const { runId } = await runNow(as(a.adminId, services), { jobId });
    expect(await db.run.findUnique({ where: { id: runId } })).toMatchObject({
      trigger: "MANUAL",
      status: "QUEUED",
      scheduledFor: null,
    });
    expect(services.calls).toEqual([
      { name: "enqueueRun", arg: { runId, workspaceId: a.workspaceId } },
    ]);
    expect(
      await db.auditEvent.findFirst({ where: { action: "run.requested", targetId: runId } }),
    ).toMatchObject({
      workspaceId: a.workspaceId,
      actorType: "USER",
      actorId: a.adminId,
      targetType: "Run",
      outcome: "queued",
    });

    const busy = await rejection(runNow(as(a.ownerId), { jobId }));
    expect(busy).toMatchObject({ code: "CONFLICT", reason: "RUN_ALREADY_ACTIVE" });
    await db.run.update({ where: { id: runId }, data: { status: "SUCCEEDED" } });
    const second = await runNow(as(a.ownerId), { jobId });
    expect(second.runId).not.toBe(runId);
  });

  test("never stacks two active runs when run-now is clicked twice at once", async ({
    db,
    as,
    tenants: { a },
  }) => {
    const jobId = await seedJob(db, a);
    const results = await Promise.allSettled([
      runNow(as(a.ownerId), { jobId }),
      runNow(as(a.adminId), { jobId }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await db.run.count({ where: { jobId } })).toBe(1);
  });

  test("[P05] refuses a job that is not approved, removed, or in another workspace", async ({
    db,
    as,
    tenants: { a, b },
  }) => {
    const pending = await seedJob(db, a, { status: "NEEDS_APPROVAL" });
    expect(await rejection(runNow(as(a.ownerId), { jobId: pending }))).toMatchObject({
      code: "PRECONDITION_FAILED",
      reason: "JOB_NOT_APPROVED",
    });
    const removed = await seedJob(db, a);
    await db.job.update({
      where: { id: removed },
      data: { status: "REMOVED", removedAt: new Date() },
    });
    expect(await rejection(runNow(as(a.ownerId), { jobId: removed }))).toMatchObject({
      code: "NOT_FOUND",
    });
    const foreign = await seedJob(db, b);
    expect(await rejection(runNow(as(a.ownerId), { jobId: foreign }))).toMatchObject({
      code: "NOT_FOUND",
      reason: "JOB_NOT_FOUND",
    });
    expect(await db.run.count({ where: { jobId: { in: [pending, removed, foreign] } } })).toBe(0);
  });

  test("says clearly when the server has no queue wired, and creates no run", async ({
    db,
    tenants: { a },
  }) => {
    const jobId = await seedJob(db, a);
    const error = await rejection(runNow(actorContext(db, a, a.ownerId), { jobId }));
    expect(error).toMatchObject({ code: "INTERNAL", reason: "SERVICES_NOT_WIRED" });
    expect(await db.run.count({ where: { jobId } })).toBe(0);
  });
});

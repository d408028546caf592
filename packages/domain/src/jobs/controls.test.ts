import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { syncRepositoryNow } from "../repositories/sync-now.ts";
import { actorContext, recordingServices, seedJob, seedTenant } from "../testing/index.ts";
import { pauseJob, resumeJob } from "./controls.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  return { a, b };
});

const enabled = async (db: Db, jobId: string) =>
  (await db.job.findUniqueOrThrow({ where: { id: jobId } })).enabled;

describe("job controls", () => {
  test("[C02] an admin pauses and resumes a job's schedule; a viewer cannot; [P05] other workspaces' jobs are not found", async ({
    db,
    tenants: { a, b },
  }) => {
    const jobId = await seedJob(db, a);
    const services = recordingServices();
    const admin = actorContext(db, a, a.adminId, { services });
    const viewer = actorContext(db, a, a.viewerId, { services });

    await expect(pauseJob(viewer, { jobId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await enabled(db, jobId)).toBe(true);
    expect(services.calls).toEqual([]);

    await pauseJob(admin, { jobId });
    expect(await enabled(db, jobId)).toBe(false);
    await resumeJob(admin, { jobId });
    expect(await enabled(db, jobId)).toBe(true);
    expect(services.calls).toEqual([
      { name: "syncSchedules", arg: a.workspaceId },
      { name: "syncSchedules", arg: a.workspaceId },
    ]);
    const actions = await db.auditEvent.findMany({
      where: { workspaceId: a.workspaceId, targetId: jobId },
      orderBy: { createdAt: "asc" },
    });
    expect(actions.map((e) => [e.action, e.targetType, e.actorId])).toEqual([
      ["job.paused", "Job", a.adminId],
      ["job.resumed", "Job", a.adminId],
    ]);

    const otherJob = await seedJob(db, b);
    await expect(pauseJob(admin, { jobId: otherJob })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await enabled(db, otherJob)).toBe(true);
  });

  test("[C02] an admin asks for a repository sync; a viewer cannot; [P05] other workspaces' repositories are not found", async ({
    db,
    tenants: { a, b },
  }) => {
    const services = recordingServices();
    const admin = actorContext(db, a, a.adminId, { services });
    await expect(
      syncRepositoryNow(actorContext(db, a, a.viewerId, { services }), {
        repositoryId: a.repositoryId,
      }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(syncRepositoryNow(admin, { repositoryId: b.repositoryId })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(services.calls).toEqual([]);
    await syncRepositoryNow(admin, { repositoryId: a.repositoryId });
    expect(services.calls).toEqual([
      {
        name: "requestSync",
        arg: { workspaceId: a.workspaceId, repositoryId: a.repositoryId },
      },
    ]);
    expect(
      await db.auditEvent.findFirst({
        where: { action: "repository.sync_requested", targetId: a.repositoryId },
      }),
    ).toMatchObject({ actorId: a.adminId, targetType: "Repository" });
  });
});

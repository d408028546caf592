import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncRepositoryNow } from "../repositories/sync-now.ts";
import {
  actorContext,
  recordingServices,
  seedJob,
  seedTenant,
  type Tenant,
} from "../testing/index.ts";
import { pauseJob, resumeJob } from "./controls.ts";

let t: TestDatabase;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
  b = await seedTenant(t.db, "other");
});
afterAll(async () => t?.drop());

const enabled = async (jobId: string) =>
  (await t.db.job.findUniqueOrThrow({ where: { id: jobId } })).enabled;

describe("job controls", () => {
  it("[C02] an admin pauses and resumes a job's schedule; a viewer cannot; [P05] other workspaces' jobs are not found", async () => {
    const jobId = await seedJob(t.db, a);
    const services = recordingServices();
    const admin = actorContext(t.db, a, a.adminId, { services });
    const viewer = actorContext(t.db, a, a.viewerId, { services });

    await expect(pauseJob(viewer, { jobId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await enabled(jobId)).toBe(true);
    expect(services.calls).toEqual([]);

    await pauseJob(admin, { jobId });
    expect(await enabled(jobId)).toBe(false);
    await resumeJob(admin, { jobId });
    expect(await enabled(jobId)).toBe(true);
    expect(services.calls).toEqual([
      { name: "syncSchedules", arg: a.workspaceId },
      { name: "syncSchedules", arg: a.workspaceId },
    ]);
    const actions = await t.db.auditEvent.findMany({
      where: { workspaceId: a.workspaceId, targetId: jobId },
      orderBy: { createdAt: "asc" },
    });
    expect(actions.map((e) => [e.action, e.targetType, e.actorId])).toEqual([
      ["job.paused", "Job", a.adminId],
      ["job.resumed", "Job", a.adminId],
    ]);

    const otherJob = await seedJob(t.db, b);
    await expect(pauseJob(admin, { jobId: otherJob })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await enabled(otherJob)).toBe(true);
  });

  it("[C02] an admin asks for a repository sync; a viewer cannot; [P05] other workspaces' repositories are not found", async () => {
    const services = recordingServices();
    const admin = actorContext(t.db, a, a.adminId, { services });
    await expect(
      syncRepositoryNow(actorContext(t.db, a, a.viewerId, { services }), {
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
      await t.db.auditEvent.findFirst({
        where: { action: "repository.sync_requested", targetId: a.repositoryId },
      }),
    ).toMatchObject({ actorId: a.adminId, targetType: "Repository" });
  });
});

// The owner's per-job choice on events from people without write access (E03): off by
// default, changed only by an owner or admin, audited, and never another workspace's job.
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { getJob } from "../jobs/read.ts";
import { actorContext, seedJob, seedTenant } from "../testing/index.ts";
import { setOutsiderEvents } from "./outsider-events.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
  b: await seedTenant(db, "other"),
}));

describe("outsider events toggle", () => {
  test("[E03] off by default; an admin turns it on and the owner off again, each audited", async ({
    db,
    tenants: { a },
  }) => {
    const jobId = await seedJob(db, a);
    const viewer = actorContext(db, a, a.viewerId);
    expect((await getJob(viewer, { jobId })).allowOutsiderEvents).toBe(false);
    await setOutsiderEvents(actorContext(db, a, a.adminId), { jobId, allow: true });
    expect((await getJob(viewer, { jobId })).allowOutsiderEvents).toBe(true);
    await setOutsiderEvents(actorContext(db, a, a.ownerId), { jobId, allow: false });
    expect((await getJob(viewer, { jobId })).allowOutsiderEvents).toBe(false);
    const audit = await db.auditEvent.findMany({
      where: { action: "job.outsider_events_changed", targetId: jobId },
      orderBy: { id: "asc" },
    });
    expect(audit.map((r) => [r.actorId, r.outcome])).toEqual([
      [a.adminId, "allowed"],
      [a.ownerId, "not_allowed"],
    ]);
  });

  test("[C02][P05] a viewer is refused and another workspace's job is not found, changing nothing", async ({
    db,
    tenants: { a, b },
  }) => {
    const jobId = await seedJob(db, a);
    await expect(
      setOutsiderEvents(actorContext(db, a, a.viewerId), { jobId, allow: true }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const foreign = await seedJob(db, b);
    await expect(
      setOutsiderEvents(actorContext(db, a, a.ownerId), { jobId: foreign, allow: true }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const rows = await db.job.findMany({ where: { id: { in: [jobId, foreign] } } });
    expect(rows.map((r) => r.allowOutsiderEvents)).toEqual([false, false]);
    expect(
      await db.auditEvent.count({
        where: { action: "job.outsider_events_changed", targetId: { in: [jobId, foreign] } },
      }),
    ).toBe(0);
  });
});

import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { recordAudit, SYSTEM_SCHEDULER } from "../audit/record.ts";
import { actorContext, seedJob, seedTenant } from "../testing/index.ts";
import { getJob, listJobs } from "./read.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
}));

const now = new Date("2026-03-27T12:00:00Z");

describe("jobs as the screens read them", () => {
  test("lists the next three fires in the job's time zone and the cron in words", async ({
    db,
    tenants: { a },
  }) => {
    const jobId = await seedJob(db, a);
    await db.job.update({
      where: { id: jobId },
      data: { schedule: "0 9 * * 1-5", timezone: "Europe/Berlin" },
    });
    const ctx = { ...actorContext(db, a, a.viewerId), now: () => now };
    const job = (await listJobs(ctx, {})).find((j) => j.id === jobId)!;
    // Friday 27 March 2026, then Monday 30 March after the switch to summer time (UTC+2).
    expect(job.nextFireTimes.map((d) => d.toISOString())).toEqual([
      "2026-03-30T07:00:00.000Z",
      "2026-03-31T07:00:00.000Z",
      "2026-04-01T07:00:00.000Z",
    ]);
    expect(job.scheduleText).toBe("At 09:00, Monday through Friday");
    expect((await getJob(ctx, { jobId })).nextFireTimes).toEqual(job.nextFireTimes);
  });

  test("shows no next fires for a paused or unapproved job", async ({ db, tenants: { a } }) => {
    const paused = await seedJob(db, a, { enabled: false });
    const pending = await seedJob(db, a, { status: "NEEDS_APPROVAL" });
    const ctx = actorContext(db, a, a.viewerId);
    const jobs = await listJobs(ctx, {});
    for (const id of [paused, pending]) {
      const job = jobs.find((j) => j.id === id)!;
      expect(job.nextFireTimes).toEqual([]);
      expect(job.scheduleText).toBe("At 09:00");
    }
  });

  test("shows the fires the scheduler skipped (previous run still going) or missed (it was down)", async ({
    db,
    tenants: { a },
  }) => {
    const jobId = await seedJob(db, a);
    // Exactly the row @secondshift/scheduler's handleFire writes when it skips a fire.
    const skip = () =>
      recordAudit(db, {
        workspaceId: a.workspaceId,
        actorType: "SYSTEM",
        actorId: SYSTEM_SCHEDULER,
        action: "schedule.skipped",
        targetType: "Job",
        targetId: jobId,
        outcome: "previous_run_active",
      });
    await skip();
    await skip();
    // And the row it writes for fires missed while it was down.
    await recordAudit(db, {
      workspaceId: a.workspaceId,
      actorType: "SYSTEM",
      actorId: SYSTEM_SCHEDULER,
      action: "schedule.missed",
      targetType: "Job",
      targetId: jobId,
      outcome: "scheduler_was_down",
    });
    const ctx = actorContext(db, a, a.viewerId);
    const listed = (await listJobs(ctx, {})).find((j) => j.id === jobId)!;
    expect(listed.skippedFires.lastWeek).toBe(3);
    expect(listed.skippedFires.lastAt).toBeInstanceOf(Date);
    const detail = await getJob(ctx, { jobId });
    expect(detail.recentSkippedFires.map((s) => s.reason)).toEqual([
      "scheduler_was_down",
      "previous_run_active",
      "previous_run_active",
    ]);
    const other = (await listJobs(ctx, {})).find((j) => j.id !== jobId)!;
    expect(other.skippedFires).toEqual({ lastWeek: 0, lastAt: null });
  });
});

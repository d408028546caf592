import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { getJob } from "../jobs/read.ts";
import { runNow } from "../jobs/run-now.ts";
import { insertQueuedRun } from "@secondshift/run-lifecycle";
import { actorContext, recordingServices, seedJob, seedTenant } from "../testing/index.ts";
import { getWorkspace, updateWorkspace } from "./settings.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
}));

const budgetOf = async (db: Db, runId: string) =>
  (await db.run.findUniqueOrThrow({ where: { id: runId } })).budgetTokens;

describe("workspace settings", () => {
  test("an owner sets concurrency and the default budget (up to the operator's cap); every member reads them", async ({
    db,
    tenants: { a },
  }) => {
    const owner = actorContext(db, a, a.ownerId);
    await updateWorkspace(owner, { maxConcurrentRuns: 4, defaultTokenBudget: 75_000 });
    expect(await getWorkspace(actorContext(db, a, a.viewerId), {})).toMatchObject({
      maxConcurrentRuns: 4,
      defaultTokenBudget: 75_000,
    });
    for (const defaultTokenBudget of [999, 100_000_001, 1.5]) {
      await expect(updateWorkspace(owner, { defaultTokenBudget })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        reason: "BUDGET_OUT_OF_RANGE",
      });
    }
    await expect(
      updateWorkspace(actorContext(db, a, a.adminId), { defaultTokenBudget: 5_000 }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    // The operator's RUN_MAX_TOKEN_BUDGET bounds the default as it bounds a job's own budget.
    const capped = { ...owner, maxTokenBudget: 50_000 };
    await expect(updateWorkspace(capped, { defaultTokenBudget: 50_001 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      reason: "BUDGET_OUT_OF_RANGE",
    });
    await updateWorkspace(capped, { defaultTokenBudget: 50_000 });
  });

  test("[E04] an owner sets the event-started runs per hour (1 to 10000, default 60); an admin may not", async ({
    db,
    tenants: { a },
  }) => {
    const owner = actorContext(db, a, a.ownerId);
    expect((await getWorkspace(owner, {})).eventRunsPerHour).toBe(60);
    await updateWorkspace(owner, { eventRunsPerHour: 250 });
    expect((await getWorkspace(actorContext(db, a, a.viewerId), {})).eventRunsPerHour).toBe(250);
    for (const eventRunsPerHour of [0, 10_001, 2.5]) {
      await expect(updateWorkspace(owner, { eventRunsPerHour })).rejects.toMatchObject({
        code: "BAD_REQUEST",
        reason: "EVENT_RUNS_OUT_OF_RANGE",
      });
    }
    await expect(
      updateWorkspace(actorContext(db, a, a.adminId), { eventRunsPerHour: 5 }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await getWorkspace(owner, {})).eventRunsPerHour).toBe(250);
    const audit = await db.auditEvent.findFirst({
      where: { workspaceId: a.workspaceId, action: "workspace.updated" },
      orderBy: { id: "desc" },
    });
    expect(audit?.actorId).toBe(a.ownerId);
  });

  test("a job without its own budget runs with the workspace default as it stands at each run", async ({
    db,
    tenants: { a },
  }) => {
    const jobId = await seedJob(db, a);
    await db.job.update({ where: { id: jobId }, data: { tokenBudget: null } });
    const owner = actorContext(db, a, a.ownerId, { services: recordingServices() });
    await updateWorkspace(owner, { defaultTokenBudget: 42_000 });
    expect(await getJob(owner, { jobId })).toMatchObject({
      tokenBudget: null,
      effectiveTokenBudget: 42_000,
    });
    const manual = await runNow(owner, { jobId });
    expect(await budgetOf(db, manual.runId)).toBe(42_000);
    await db.run.update({ where: { id: manual.runId }, data: { status: "CANCELLED" } });

    // The scheduler's fire inserts through the same function (handleFire → insertQueuedRun).
    await updateWorkspace(owner, { defaultTokenBudget: 43_000 });
    const fired = await db.$transaction((tx) =>
      insertQueuedRun(tx, {
        workspaceId: a.workspaceId,
        jobId,
        trigger: "SCHEDULE",
        scheduledFor: new Date("2026-03-01T09:00:00Z"),
        jobTokenBudget: null,
      }),
    );
    expect(fired.budgetTokens).toBe(43_000);
  });

  test("a job's own budget wins over the workspace default", async ({ db, tenants: { a } }) => {
    const jobId = await seedJob(db, a);
    const owner = actorContext(db, a, a.ownerId, { services: recordingServices() });
    const { runId } = await runNow(owner, { jobId });
    expect(await budgetOf(db, runId)).toBe(10_000);
  });
});

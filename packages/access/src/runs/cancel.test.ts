import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorContext, createRun, seedJob, seedTenant, type Tenant } from "../testing/index.ts";
import { cancelRun } from "./cancel.ts";

let t: TestDatabase;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
  b = await seedTenant(t.db, "other");
});
afterAll(async () => t?.drop());

const run = async (id: string) => t.db.run.findUniqueOrThrow({ where: { id } });

describe("cancelRun", () => {
  it("cancels a queued run at once and asks a running one to stop, audited", async () => {
    const queued = await createRun(t.db, a.workspaceId, await seedJob(t.db, a), "QUEUED");
    const running = await createRun(t.db, a.workspaceId, await seedJob(t.db, a), "RUNNING");
    const admin = actorContext(t.db, a, a.adminId);
    expect(await cancelRun(admin, { runId: queued })).toEqual({ status: "CANCELLED" });
    expect(await run(queued)).toMatchObject({ status: "CANCELLED" });
    expect((await run(queued)).finishedAt).not.toBeNull();
    expect(await cancelRun(admin, { runId: running })).toEqual({ status: "RUNNING" });
    const asked = (await run(running)).cancelRequestedAt;
    expect(asked).not.toBeNull();
    // A second click keeps the first request's time, and a final status is never overwritten.
    await cancelRun(admin, { runId: running });
    expect((await run(running)).cancelRequestedAt).toEqual(asked);
    await t.db.run.update({ where: { id: queued }, data: { status: "SUCCEEDED" } });
    expect(await cancelRun(admin, { runId: queued })).toEqual({ status: "SUCCEEDED" });
    const audit = await t.db.auditEvent.findMany({
      where: { action: "run.cancel_requested", targetId: { in: [queued, running] } },
    });
    expect(audit.every((e) => e.targetType === "Run" && e.actorId === a.adminId)).toBe(true);
    expect(audit).toHaveLength(4);
  });

  it("[C02] a viewer cannot cancel, and [P05] another workspace's run is not found", async () => {
    const mine = await createRun(t.db, a.workspaceId, await seedJob(t.db, a));
    const theirs = await createRun(t.db, b.workspaceId, await seedJob(t.db, b));
    await expect(
      cancelRun(actorContext(t.db, a, a.viewerId), { runId: mine }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      cancelRun(actorContext(t.db, a, a.ownerId), { runId: theirs }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", reason: "RUN_NOT_FOUND" });
    await expect(
      cancelRun(actorContext(t.db, a, b.ownerId), { runId: mine }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await run(mine)).cancelRequestedAt).toBeNull();
    expect((await run(theirs)).cancelRequestedAt).toBeNull();
  });
});

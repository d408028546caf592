import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { actorContext, createRun, seedJob, seedTenant } from "../testing/index.ts";
import { cancelRun } from "./cancel.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  return { a, b };
});

const run = async (db: Db, id: string) => db.run.findUniqueOrThrow({ where: { id } });

describe("cancelRun", () => {
  test("cancels a queued run at once and asks a running one to stop, audited", async ({
    db,
    tenants: { a },
  }) => {
    const queued = await createRun(db, a.workspaceId, await seedJob(db, a), "QUEUED");
    const running = await createRun(db, a.workspaceId, await seedJob(db, a), "RUNNING");
    const admin = actorContext(db, a, a.adminId);
    expect(await cancelRun(admin, { runId: queued })).toEqual({ status: "CANCELLED" });
    expect(await run(db, queued)).toMatchObject({ status: "CANCELLED" });
    expect((await run(db, queued)).finishedAt).not.toBeNull();
    expect(await cancelRun(admin, { runId: running })).toEqual({ status: "RUNNING" });
    const asked = (await run(db, running)).cancelRequestedAt;
    expect(asked).not.toBeNull();
    // A second click keeps the first request's time, and a final status is never overwritten.
    await cancelRun(admin, { runId: running });
    expect((await run(db, running)).cancelRequestedAt).toEqual(asked);
    await db.run.update({ where: { id: queued }, data: { status: "SUCCEEDED" } });
    expect(await cancelRun(admin, { runId: queued })).toEqual({ status: "SUCCEEDED" });
    const audit = await db.auditEvent.findMany({
      where: { action: "run.cancel_requested", targetId: { in: [queued, running] } },
    });
    expect(audit.every((e) => e.targetType === "Run" && e.actorId === a.adminId)).toBe(true);
    expect(audit).toHaveLength(4);
  });

  test("[C02] a viewer cannot cancel, and [P05] another workspace's run is not found", async ({
    db,
    tenants: { a, b },
  }) => {
    const mine = await createRun(db, a.workspaceId, await seedJob(db, a));
    const theirs = await createRun(db, b.workspaceId, await seedJob(db, b));
    await expect(cancelRun(actorContext(db, a, a.viewerId), { runId: mine })).rejects.toMatchObject(
      { code: "FORBIDDEN" },
    );
    await expect(
      cancelRun(actorContext(db, a, a.ownerId), { runId: theirs }),
    ).rejects.toMatchObject({ code: "NOT_FOUND", reason: "RUN_NOT_FOUND" });
    await expect(cancelRun(actorContext(db, a, b.ownerId), { runId: mine })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect((await run(db, mine)).cancelRequestedAt).toBeNull();
    expect((await run(db, theirs)).cancelRequestedAt).toBeNull();
  });
});

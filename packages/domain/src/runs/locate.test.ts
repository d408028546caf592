import { randomUUID } from "node:crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { createRun, seedJob, seedTenant } from "../testing/index.ts";
import { locateRun } from "./locate.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  return { a, b };
});

describe("locateRun", () => {
  test("every member learns the run's workspace", async ({ db, tenants: { a } }) => {
    const runId = await createRun(db, a.workspaceId, await seedJob(db, a));
    for (const userId of [a.ownerId, a.adminId, a.viewerId]) {
      expect(await locateRun({ db, actor: { userId } }, { runId })).toEqual({
        workspaceId: a.workspaceId,
        runId,
      });
    }
  });

  test("[P05] another workspace's run answers exactly as a run that does not exist", async ({
    db,
    tenants: { a, b },
  }) => {
    const runId = await createRun(db, a.workspaceId, await seedJob(db, a));
    const stranger = { db, actor: { userId: b.ownerId } };
    const foreign = await locateRun(stranger, { runId }).catch((e: unknown) => e);
    const missing = await locateRun(stranger, { runId: randomUUID() }).catch((e: unknown) => e);
    expect(foreign).toMatchObject({ code: "NOT_FOUND", reason: "RUN_NOT_FOUND" });
    expect(missing).toMatchObject({ code: "NOT_FOUND", reason: "RUN_NOT_FOUND" });
    expect((foreign as Error).message).toBe((missing as Error).message);
  });
});

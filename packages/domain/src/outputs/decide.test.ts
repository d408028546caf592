import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { actorContext, recordingServices, seedOutput, seedTenant } from "../testing/index.ts";
import { approveOutput, rejectOutput } from "./decide.ts";
import { listRunOutputs, listWaitingOutputs } from "./read.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  return { a, b };
});

describe("deciding on a held output", () => {
  test("[O06] an owner's approval is recorded once, audited, and puts the output on the queue once", async ({
    db,
    tenants: { a },
  }) => {
    const { outputId, runId } = await seedOutput(db, a);
    const services = recordingServices();
    const owner = actorContext(db, a, a.ownerId, { services });
    expect(await approveOutput(owner, { outputId })).toEqual({ state: "APPROVED" });
    // A second click, or a second owner at the same time: one decision, the other told why.
    const again = await Promise.allSettled([
      approveOutput(owner, { outputId }),
      rejectOutput(owner, { outputId }),
    ]);
    for (const r of again) expect(r).toMatchObject({ reason: { code: "CONFLICT" } });
    expect(services.calls).toEqual([
      { name: "enqueueOutputApply", arg: { outputId, workspaceId: a.workspaceId } },
    ]);
    const audit = await db.auditEvent.findMany({ where: { targetId: outputId } });
    expect(audit.map((e) => [e.action, e.actorId, e.targetType])).toEqual([
      ["output.approved", a.ownerId, "RunOutput"],
    ]);
    const [shown] = await listRunOutputs(owner, { runId });
    expect(shown).toMatchObject({ state: "APPROVED", decidedBy: { id: a.ownerId } });
    expect(shown!.decidedBy!.name).not.toBe(a.ownerId);
  });

  test("a rejection ends the output and never queues it; only held outputs are waiting", async ({
    db,
    tenants: { a },
  }) => {
    const held = await seedOutput(db, a);
    const refused = await seedOutput(db, a, { state: "REFUSED" });
    const services = recordingServices();
    const owner = actorContext(db, a, a.ownerId, { services });
    const waiting = (await listWaitingOutputs(owner, {})).map((o) => o.id);
    expect(waiting).toContain(held.outputId);
    expect(waiting).not.toContain(refused.outputId);
    expect(await rejectOutput(owner, { outputId: held.outputId })).toEqual({ state: "REJECTED" });
    expect((await listWaitingOutputs(owner, {})).map((o) => o.id)).not.toContain(held.outputId);
    const refusal: unknown = await approveOutput(owner, { outputId: refused.outputId }).catch(
      (e: unknown) => e,
    );
    expect(refusal).toMatchObject({ code: "CONFLICT" });
    expect(String(refusal)).toContain("refused");
    expect(services.calls).toEqual([]);
  });

  test("[C02] an admin cannot decide, and [P05] another workspace's output is not found", async ({
    db,
    tenants: { a, b },
  }) => {
    const mine = await seedOutput(db, a);
    const theirs = await seedOutput(db, b);
    const services = recordingServices();
    await expect(
      approveOutput(actorContext(db, a, a.adminId, { services }), { outputId: mine.outputId }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      rejectOutput(actorContext(db, a, a.ownerId, { services }), { outputId: theirs.outputId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      listRunOutputs(actorContext(db, a, a.ownerId), { runId: theirs.runId }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.runOutput.findUniqueOrThrow({ where: { id: mine.outputId } })).toMatchObject({
      state: "HELD",
    });
  });
});

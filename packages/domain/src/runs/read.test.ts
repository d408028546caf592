import { randomUUID } from "node:crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { recordAudit } from "../audit/record.ts";
import { actorContext, seedJob, seedTenant, type Tenant } from "../testing/index.ts";
import { getRun, listRuns, MAX_DIFF_CHARS } from "./read.ts";

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  return { a, b };
});

async function secondRepository(db: Db, tenant: Tenant): Promise<string> {
  const name = `acme/second-${randomUUID().slice(0, 6)}`;
  const repo = await db.repository.create({
    data: {
      workspaceId: tenant.workspaceId,
      fullName: name,
      cloneUrl: `https://github.com/${name}.git`,
    },
  });
  return repo.id;
}

const run = (db: Db, a: Tenant, jobId: string, data: Record<string, unknown> = {}) =>
  db.run.create({
    data: {
      workspaceId: a.workspaceId,
      jobId,
      trigger: "MANUAL",
      status: "SUCCEEDED",
      budgetTokens: 1_000,
      ...data,
    },
  });

describe("runs as the screens read them", () => {
  test("filters by status, job, repository and queued time, one cursor page at a time", async ({
    db,
    tenants: { a, b },
  }) => {
    const jobA = await seedJob(db, a);
    const otherRepo = { workspaceId: a.workspaceId, repositoryId: await secondRepository(db, a) };
    const jobB = await seedJob(db, otherRepo);
    const day = (d: number) => new Date(Date.UTC(2026, 0, d));
    for (let d = 1; d <= 6; d++) await run(db, a, jobA, { queuedAt: day(d) });
    await run(db, a, jobA, { status: "FAILED", queuedAt: day(3) });
    await run(db, a, jobB, { queuedAt: day(4) });
    const ctx = actorContext(db, a, a.viewerId);

    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listRuns(ctx, { jobId: jobA, limit: 3, ...(cursor ? { cursor } : {}) });
      ids.push(...page.items.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(ids).toHaveLength(7);
    expect(new Set(ids).size).toBe(7);

    const failed = await listRuns(ctx, { status: ["FAILED"] });
    expect(failed.items.map((r) => r.status)).toEqual(["FAILED"]);
    const inRepo = await listRuns(ctx, { repositoryId: otherRepo.repositoryId });
    expect(inRepo.items.map((r) => r.jobId)).toEqual([jobB]);
    expect(inRepo.items[0]?.job.repositoryId).toBe(otherRepo.repositoryId);
    const window = await listRuns(ctx, { jobId: jobA, since: day(2), until: day(4) });
    expect(window.items.map((r) => r.queuedAt.getTime()).sort()).toEqual(
      [day(2), day(3), day(3)].map((d) => d.getTime()),
    );
    // [P05] another workspace's repository filters to nothing.
    expect((await listRuns(ctx, { repositoryId: b.repositoryId })).items).toEqual([]);
  });

  test("shows usage against budget, tool calls, timings, the capped diff and every webhook attempt", async ({
    db,
    tenants: { a },
  }) => {
    const jobId = await seedJob(db, a);
    const queuedAt = new Date("2026-02-01T10:00:00Z");
    const r = await run(db, a, jobId, {
      queuedAt,
      startedAt: new Date(queuedAt.getTime() + 1_500),
      finishedAt: new Date(queuedAt.getTime() + 61_500),
      tokensUsed: 250,
      diff: "x".repeat(MAX_DIFF_CHARS + 10),
    });
    // One built-in call and one through the broker (its audit row is not counted twice).
    for (const [seq, name] of [
      [1, "read_file"],
      [3, "mcp__docs__search"],
    ] as const) {
      await db.runEvent.createMany({
        data: [
          { workspaceId: a.workspaceId, runId: r.id, seq, type: "tool_call", payload: { name } },
          {
            workspaceId: a.workspaceId,
            runId: r.id,
            seq: seq + 1,
            type: "tool_result",
            payload: {},
          },
        ],
      });
    }
    await recordAudit(db, {
      workspaceId: a.workspaceId,
      actorType: "RUN",
      actorId: r.id,
      action: "tool.call",
      toolName: "search",
      outcome: "ok",
    });
    const hook = await db.webhook.create({
      data: {
        workspaceId: a.workspaceId,
        name: "ci",
        urlCiphertext: new Uint8Array([1]),
        secretCiphertext: new Uint8Array([2]),
      },
    });
    const delivery = await db.webhookDelivery.create({
      data: { workspaceId: a.workspaceId, webhookId: hook.id, runId: r.id, attemptCount: 2 },
    });
    for (const statusCode of [500, 200]) {
      await db.webhookDeliveryAttempt.create({
        data: { workspaceId: a.workspaceId, deliveryId: delivery.id, statusCode, durationMs: 12 },
      });
    }

    const detail = await getRun(actorContext(db, a, a.viewerId), { runId: r.id });
    expect(detail.usage).toEqual({
      tokensUsed: 250,
      budgetTokens: 1_000,
      budgetPercent: 25,
      toolCalls: 2,
    });
    expect(detail.timings).toEqual({ waitMs: 1_500, runMs: 60_000, totalMs: 61_500 });
    expect(detail.diff).toMatchObject({ truncated: true, totalChars: MAX_DIFF_CHARS + 10 });
    expect(detail.diff?.text).toHaveLength(MAX_DIFF_CHARS);
    expect(detail.deliveries).toHaveLength(1);
    expect(detail.deliveries[0]?.webhook.name).toBe("ci");
    expect(detail.deliveries[0]?.attempts.map((x) => x.statusCode)).toEqual([500, 200]);
  });

  test("a run not started yet has no timings beyond its queue time and no diff", async ({
    db,
    tenants: { a },
  }) => {
    const r = await run(db, a, await seedJob(db, a), { status: "QUEUED" });
    const detail = await getRun(actorContext(db, a, a.ownerId), { runId: r.id });
    expect(detail.timings).toEqual({ waitMs: null, runMs: null, totalMs: null });
    expect(detail.diff).toBeNull();
    expect(detail.deliveries).toEqual([]);
  });

  test("[P05] another workspace's run is not found", async ({ db, tenants: { a, b } }) => {
    const other = await db.run.create({
      data: {
        workspaceId: b.workspaceId,
        jobId: await seedJob(db, b),
        trigger: "MANUAL",
        budgetTokens: 1,
      },
    });
    await expect(getRun(actorContext(db, a, a.ownerId), { runId: other.id })).rejects.toMatchObject(
      { code: "NOT_FOUND" },
    );
  });
});

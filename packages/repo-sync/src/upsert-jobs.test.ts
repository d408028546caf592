// Repository sync's job writes: a repository only requests, so a new or changed request always
// lands in NEEDS_APPROVAL, only an unchanged one keeps its decision, and the writes are audited
// as the repo-sync system actor.
import { createHash } from "node:crypto";
import { approveJob } from "@secondshift/domain";
import {
  job,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
  type Tenant,
} from "@secondshift/domain/testing";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { upsertJobsFromConfig } from "./upsert-jobs.ts";

const keyring = testKeyring();

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  return { a, b };
});

const as = (tenant: Tenant, userId: string, db: Db) => ({
  db,
  keyring,
  actor: { userId },
  workspaceId: tenant.workspaceId,
});

async function upsertOne(
  db: Db,
  tenant: Tenant,
  key: string,
  tools: Parameters<typeof job>[1],
  overrides = {},
) {
  const result = await upsertJobsFromConfig(db, {
    workspaceId: tenant.workspaceId,
    repositoryId: tenant.repositoryId,
    commit: "c1",
    jobs: [job(key, tools, overrides)],
  });
  return result.jobs.find((j) => j.key === key)!;
}

describe("upsertJobsFromConfig", () => {
  test("[C04] a changed request needs approval again; unchanged keeps it; removed jobs are REMOVED", async ({
    db,
    tenants: { a },
  }) => {
    const syncOne = (
      tenant: Tenant,
      key: string,
      tools: Parameters<typeof job>[1],
      overrides = {},
    ) => upsertOne(db, tenant, key, tools, overrides);
    await seedConnection(db, keyring, a, {
      kind: "GITHUB",
      label: "gh",
      tools: [tool("list_commits"), tool("get_commit")],
      allowed: ["list_commits", "get_commit"],
    });
    const gh = (tools: string[]) => [
      { kind: "GITHUB" as const, label: null, required: true, tools },
    ];
    const created = await syncOne(a, "sync", gh(["list_commits"]));
    expect(created).toMatchObject({ status: "NEEDS_APPROVAL", change: "created" });
    const row = await db.job.findUniqueOrThrow({ where: { id: created.jobId } });
    await approveJob(as(a, a.ownerId, db), { jobId: created.jobId, requestHash: row.requestHash });

    const promptOnly = await syncOne(a, "sync", gh(["list_commits"]), { prompt: "new prompt" });
    expect(promptOnly).toMatchObject({ status: "APPROVED", change: "updated" });
    const widened = await syncOne(a, "sync", gh(["list_commits", "get_commit"]));
    expect(widened).toMatchObject({ status: "NEEDS_APPROVAL", change: "request_changed" });
    const back = await syncOne(a, "sync", gh(["list_commits"]));
    expect(back.status).toBe("NEEDS_APPROVAL"); // a change in between always needs a fresh look

    const removed = await upsertJobsFromConfig(db, {
      workspaceId: a.workspaceId,
      repositoryId: a.repositoryId,
      commit: "c2",
      jobs: [],
    });
    expect(removed.jobs.find((j) => j.key === "sync")).toMatchObject({
      status: "REMOVED",
      change: "removed",
    });
    const audit = await db.auditEvent.findMany({
      where: { targetId: created.jobId, actorType: "SYSTEM" },
    });
    expect(audit.map((e) => e.action)).toEqual(
      expect.arrayContaining(["job.created", "job.request_changed", "job.removed"]),
    );
    expect(audit.every((e) => e.actorId === "repo-sync")).toBe(true);
  });
  test("[O02] outputs are stored canonically and a change of outputs is a request change", async ({
    db,
    tenants: { a },
  }) => {
    const comments = { comment: { max: 2, target: "triggering" as const } };
    const created = await upsertOne(db, a, "reporter", [], { outputs: comments });
    const row = await db.job.findUniqueOrThrow({ where: { id: created.jobId } });
    expect(row.requestedOutputs).toEqual(comments);
    const plain = await upsertOne(db, a, "plain", []);
    const plainRow = await db.job.findUniqueOrThrow({ where: { id: plain.jobId } });
    expect(plainRow.requestedOutputs).toEqual({});
    expect(plainRow.requestHash).not.toBe(row.requestHash); // same tools, outputs differ

    await db.job.update({ where: { id: created.jobId }, data: { status: "APPROVED" } });
    const same = await upsertOne(db, a, "reporter", [], { outputs: comments });
    expect(same).toMatchObject({ status: "APPROVED", change: "updated" });
    const more = await upsertOne(db, a, "reporter", [], {
      outputs: { comment: { max: 3, target: "triggering" } },
    });
    expect(more).toMatchObject({ status: "NEEDS_APPROVAL", change: "request_changed" });
  });
  test("[C04] triggers are stored canonically; adding, widening or narrowing one needs approval again", async ({
    db,
    tenants: { a },
  }) => {
    // A job without triggers keeps exactly the hash it had before triggers existed.
    const created = await upsertOne(db, a, "reviewer", []);
    const before = await db.job.findUniqueOrThrow({ where: { id: created.jobId } });
    expect(before.requestedTriggers).toEqual({});
    const legacy = createHash("sha256")
      .update(JSON.stringify({ v: 1, groups: [] }))
      .digest("hex");
    expect(before.requestHash).toBe(legacy);
    await approveJob(as(a, a.ownerId, db), { jobId: created.jobId, requestHash: legacy });
    expect(await upsertOne(db, a, "reviewer", [], { triggers: {} })).toMatchObject({
      status: "APPROVED",
      change: "updated",
    });

    // Adding a trigger: back to needing approval, the trigger stored in the vocabulary's shape.
    const opened = { pull_request: { actions: ["opened" as const], bots: false } };
    const added = await upsertOne(db, a, "reviewer", [], { triggers: opened });
    expect(added).toMatchObject({ status: "NEEDS_APPROVAL", change: "request_changed" });
    const row = await db.job.findUniqueOrThrow({ where: { id: created.jobId } });
    expect(row.requestedTriggers).toEqual(opened);
    expect(row.requestHash).not.toBe(legacy);
    await approveJob(as(a, a.ownerId, db), { jobId: created.jobId, requestHash: row.requestHash });
    expect(await upsertOne(db, a, "reviewer", [], { triggers: opened })).toMatchObject({
      status: "APPROVED",
      change: "updated",
    });

    // Widening it (another action, bots, another kind) and narrowing it are changed requests.
    const widened = [
      { pull_request: { actions: ["opened" as const, "synchronize" as const], bots: false } },
      { pull_request: { actions: ["opened" as const], bots: true } },
      { ...opened, comment_command: { bots: false } },
    ];
    for (const triggers of widened) {
      await db.job.update({ where: { id: created.jobId }, data: { status: "APPROVED" } });
      expect(await upsertOne(db, a, "reviewer", [], { triggers })).toMatchObject({
        status: "NEEDS_APPROVAL",
        change: "request_changed",
      });
    }
    await db.job.update({ where: { id: created.jobId }, data: { status: "APPROVED" } });
    const narrowed = await upsertOne(db, a, "reviewer", [], { triggers: opened });
    expect(narrowed).toMatchObject({ status: "NEEDS_APPROVAL", change: "request_changed" });
    // Removing every trigger is the original request again: the first grant counts.
    const removed = await upsertOne(db, a, "reviewer", [], { triggers: {} });
    const back = await db.job.findUniqueOrThrow({ where: { id: created.jobId } });
    expect(removed.change).toBe("request_changed");
    expect(back.requestHash).toBe(legacy);
    expect(back.requestedTriggers).toEqual({});
  });
  test("each row names the job as the file called it then; a removal keeps the last name", async ({
    db,
    tenants: { a },
  }) => {
    const first = await upsertOne(db, a, "digest", [], { name: "Weekly digest" });
    await upsertOne(
      db,
      a,
      "digest",
      [{ kind: "MCP", label: "docs", required: false, tools: ["x"] }],
      {
        name: "Daily digest",
      },
    );
    await upsertJobsFromConfig(db, {
      workspaceId: a.workspaceId,
      repositoryId: a.repositoryId,
      commit: "c3",
      jobs: [],
    });
    const rows = await db.auditEvent.findMany({
      where: { targetId: first.jobId },
      orderBy: { id: "asc" },
    });
    expect(rows.map((e) => [e.action, e.targetLabel])).toEqual([
      ["job.created", "Weekly digest"],
      ["job.request_changed", "Daily digest"],
      ["job.removed", "Daily digest"],
    ]);
  });
  test("[P05] a repository of another workspace is not found and nothing is written", async ({
    db,
    tenants: { a, b },
  }) => {
    const before = await db.job.count({ where: { repositoryId: a.repositoryId } });
    await expect(
      upsertJobsFromConfig(db, {
        workspaceId: b.workspaceId,
        repositoryId: a.repositoryId,
        commit: "x",
        jobs: [job("foreign", [])],
      }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.job.count({ where: { repositoryId: a.repositoryId } })).toBe(before);
  });
});

import { dbTest } from "@secondshift/db/testing/vitest";
import { isAppError } from "@secondshift/errors";
import { describe, expect, vi } from "vitest";
import { createConnection, deleteConnection, setAllowedTools } from "../connections/manage.ts";
import { normaliseRequest, requestHash } from "../request.ts";
import {
  job,
  recordingServices,
  requestJob,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
  type Tenant,
} from "../testing/index.ts";
import { approveJob, rejectJob, revokeGrant } from "./decisions.ts";
import { getAccessReview } from "./review.ts";

const keyring = testKeyring();

const code = async (p: Promise<unknown>) =>
  p.then(
    () => "OK",
    (e: unknown) => (isAppError(e) ? e.code : String(e)),
  );

const test = dbTest
  .extend("tenants", { scope: "file" }, async ({ db }) => {
    const a = await seedTenant(db, "acme");
    const b = await seedTenant(db, "other");
    return { a, b };
  })
  /** acme's MCP connection "docs": search and delete_page allowed, fetch offered but not allowed. */
  .extend("docs", { scope: "file" }, ({ db, tenants: { a } }) =>
    seedConnection(db, keyring, a, {
      kind: "MCP",
      label: "docs",
      tools: [tool("search"), tool("delete_page", true), tool("fetch")],
      allowed: ["search", "delete_page"],
    }),
  )
  /** The context `userId` acts in on `tenant`'s workspace. */
  .extend("as", ({ db }) => (tenant: Tenant, userId: string) => ({
    db,
    keyring,
    actor: { userId },
    workspaceId: tenant.workspaceId,
  }))
  /** The job as a repository sync leaves it: requesting `tools`, waiting for approval. */
  .extend(
    "syncOne",
    ({ db }) =>
      (tenant: Tenant, key: string, tools: Parameters<typeof job>[1], overrides = {}) =>
        requestJob(db, tenant, job(key, tools, overrides)),
  );

describe("request hash", () => {
  test("is stable across order and duplicates, and changes with any widening", () => {
    const x = requestHash([
      { kind: "MCP", label: "docs", required: true, tools: ["b", "a", "a"] },
      { kind: "GITHUB", label: null, required: false, tools: ["c"] },
    ]);
    const y = requestHash([
      { kind: "GITHUB", label: null, required: false, tools: ["c"] },
      { kind: "MCP", label: "docs", required: true, tools: ["a", "b"] },
    ]);
    expect(x).toBe(y);
    expect(x).toMatch(/^[0-9a-f]{64}$/);
    expect(
      requestHash([{ kind: "GITHUB", label: null, required: false, tools: ["c", "d"] }]),
    ).not.toBe(requestHash([{ kind: "GITHUB", label: null, required: false, tools: ["c"] }]));
    expect(requestHash([{ kind: "GITHUB", label: null, required: true, tools: ["c"] }])).not.toBe(
      requestHash([{ kind: "GITHUB", label: null, required: false, tools: ["c"] }]),
    );
    expect(
      normaliseRequest([{ kind: "GITHUB", label: "ignored", required: false, tools: ["c"] }])[0]
        ?.label,
    ).toBeNull();
  });
});

describe("approvals", () => {
  test("review marks may-change-data and what the connection allows; every role can read it", async ({
    tenants: { a },
    docs,
    as,
    syncOne,
  }) => {
    const j = await syncOne(a, "review", [
      {
        kind: "MCP",
        label: "docs",
        required: true,
        tools: ["search", "delete_page", "fetch", "unknown"],
      },
    ]);
    for (const userId of [a.ownerId, a.adminId, a.viewerId]) {
      const review = await getAccessReview(as(a, userId), { jobId: j.jobId });
      expect(review.canApprove).toBe(userId === a.ownerId);
      expect(review.groups[0]?.connection?.id).toBe(docs);
      expect(review.groups[0]?.tools).toEqual([
        {
          name: "delete_page",
          mayChangeData: true,
          discovered: true,
          allowedOnConnection: true,
          approved: false,
        },
        {
          name: "fetch",
          mayChangeData: false,
          discovered: true,
          allowedOnConnection: false,
          approved: false,
        },
        {
          name: "search",
          mayChangeData: false,
          discovered: true,
          allowedOnConnection: true,
          approved: false,
        },
        {
          name: "unknown",
          mayChangeData: true,
          discovered: false,
          allowedOnConnection: false,
          approved: false,
        },
      ]);
    }
  });

  test("[C02] an admin or viewer cannot approve, reject, revoke, add or change connections", async ({
    db,
    tenants: { a },
    docs,
    as,
    syncOne,
  }) => {
    const j = await syncOne(a, "c02", [
      { kind: "MCP", label: "docs", required: true, tools: ["search"] },
    ]);
    const row = await db.job.findUniqueOrThrow({ where: { id: j.jobId } });
    const { grantId } = await approveJob(as(a, a.ownerId), {
      jobId: j.jobId,
      requestHash: row.requestHash,
    });
    const before = await db.auditEvent.count();
    for (const userId of [a.adminId, a.viewerId]) {
      const ctx = as(a, userId);
      expect(await code(approveJob(ctx, { jobId: j.jobId, requestHash: row.requestHash }))).toBe(
        "FORBIDDEN",
      );
      expect(await code(rejectJob(ctx, { jobId: j.jobId }))).toBe("FORBIDDEN");
      expect(await code(revokeGrant(ctx, { grantId }))).toBe("FORBIDDEN");
      expect(
        await code(
          createConnection(ctx, {
            kind: "MCP",
            label: "mine",
            endpoint: "https://evil.example",
            authType: "NONE",
          }),
        ),
      ).toBe("FORBIDDEN");
      expect(
        await code(
          setAllowedTools(ctx, {
            connectionId: docs,
            tools: ["search", "delete_page", "fetch"],
          }),
        ),
      ).toBe("FORBIDDEN");
      expect(await code(deleteConnection(ctx, { connectionId: docs }))).toBe("FORBIDDEN");
    }
    expect(await db.auditEvent.count()).toBe(before);
    expect((await db.connection.findUniqueOrThrow({ where: { id: docs } })).allowedTools).toEqual([
      "delete_page",
      "search",
    ]);
    expect((await db.grant.findUniqueOrThrow({ where: { id: grantId } })).revokedAt).toBeNull();
    expect(await db.connection.count({ where: { label: "mine" } })).toBe(0);
  });

  test("approving binds the group and grants only tools the connection allows; the decision is audited", async ({
    db,
    tenants: { a },
    docs,
    as,
    syncOne,
  }) => {
    const j = await syncOne(a, "bind", [
      { kind: "MCP", label: "docs", required: false, tools: ["search", "fetch"] },
    ]);
    const row = await db.job.findUniqueOrThrow({ where: { id: j.jobId } });
    const result = await approveJob(as(a, a.ownerId), {
      jobId: j.jobId,
      requestHash: row.requestHash,
    });
    expect(result.groups).toEqual([
      {
        key: "MCP:docs",
        connectionId: docs,
        tools: ["search"],
        missing: ["fetch"],
        required: false,
      },
    ]);
    const tools = await db.grantTool.findMany({ where: { grantId: result.grantId } });
    expect(tools.map((x) => x.toolName)).toEqual(["search"]);
    expect((await db.job.findUniqueOrThrow({ where: { id: j.jobId } })).status).toBe("APPROVED");
    const audit = await db.auditEvent.findFirstOrThrow({
      where: { action: "job.approved", targetId: j.jobId },
    });
    expect(audit).toMatchObject({
      actorType: "USER",
      actorId: a.ownerId,
      targetType: "Job",
      workspaceId: a.workspaceId,
    });
    // A stale review cannot be approved.
    expect(
      await code(approveJob(as(a, a.ownerId), { jobId: j.jobId, requestHash: "0".repeat(64) })),
    ).toBe("CONFLICT");
  });

  test("[C01] the repository's label is a hint: the owner's binding decides", async ({
    db,
    tenants: { a },
    as,
    syncOne,
  }) => {
    const wiki = await seedConnection(db, keyring, a, {
      kind: "MCP",
      label: "wiki",
      tools: [tool("search")],
      allowed: ["search"],
    });
    const j = await syncOne(a, "pick", [
      { kind: "MCP", label: "docs", required: true, tools: ["search"] },
    ]);
    const row = await db.job.findUniqueOrThrow({ where: { id: j.jobId } });
    const result = await approveJob(as(a, a.ownerId), {
      jobId: j.jobId,
      requestHash: row.requestHash,
      bindings: { "MCP:docs": wiki },
    });
    expect(result.groups[0]?.connectionId).toBe(wiki);
  });

  test("[C01] with two connections of the kind, the repository's label does not pick one: nothing is bound until the owner chooses", async ({
    db,
    tenants: { a },
    docs,
    as,
    syncOne,
  }) => {
    // "wiki" (previous test) and "docs" are both MCP connections now.
    const j = await syncOne(a, "label-only", [
      { kind: "MCP", label: "docs", required: true, tools: ["search"] },
    ]);
    const review = await getAccessReview(as(a, a.ownerId), { jobId: j.jobId });
    expect(review.groups[0]?.connection).toBeNull();
    expect(review.groups[0]?.candidates.map((c) => c.label).sort()).toEqual(["docs", "wiki"]);
    const row = await db.job.findUniqueOrThrow({ where: { id: j.jobId } });
    const result = await approveJob(as(a, a.ownerId), {
      jobId: j.jobId,
      requestHash: row.requestHash,
    });
    expect(result.groups[0]).toMatchObject({ connectionId: null, tools: [], missing: ["search"] });
    expect(await db.grantTool.count({ where: { grantId: result.grantId } })).toBe(0);
    const chosen = await approveJob(as(a, a.ownerId), {
      jobId: j.jobId,
      requestHash: row.requestHash,
      bindings: { "MCP:docs": docs },
    });
    expect(chosen.groups[0]).toMatchObject({ connectionId: docs, tools: ["search"] });
  });

  test("[C01] a sync landing during an approval cannot leave the job approved for the old request", async ({
    db,
    testDatabase,
    tenants: { a },
    docs,
    as,
    syncOne,
  }) => {
    const j = await syncOne(a, "race", [
      { kind: "MCP", label: "docs", required: true, tools: ["search"] },
    ]);
    const reviewed = (await db.job.findUniqueOrThrow({ where: { id: j.jobId } })).requestHash;
    // The sync's write, held open while the owner approves what they reviewed.
    const sync = await testDatabase.pool.connect();
    try {
      await sync.query("BEGIN");
      await sync.query(
        `UPDATE "Job" SET "requestHash" = $1, "status" = 'NEEDS_APPROVAL' WHERE "id" = $2`,
        ["f".repeat(64), j.jobId],
      );
      const { rows } = await sync.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
      const approving = code(
        approveJob(as(a, a.ownerId), {
          jobId: j.jobId,
          requestHash: reviewed,
          bindings: { "MCP:docs": docs },
        }),
      );
      // The approval is waiting on the sync's row lock before the sync commits.
      await vi.waitFor(
        async () => {
          const blocked = await testDatabase.pool.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
            [rows[0]!.pid],
          );
          expect(blocked.rows[0]!.n).toBe(1);
        },
        { timeout: 10_000, interval: 20 },
      );
      await sync.query("COMMIT");
      expect(await approving).toBe("CONFLICT");
    } finally {
      sync.release();
    }
    const job = await db.job.findUniqueOrThrow({ where: { id: j.jobId } });
    expect(job).toMatchObject({ status: "NEEDS_APPROVAL", requestHash: "f".repeat(64) });
    expect(await db.grant.count({ where: { jobId: j.jobId, revokedAt: null } })).toBe(0);
  });

  test("reject and revoke are audited and take the job out of APPROVED; each decision syncs the schedules at once", async ({
    db,
    tenants: { a },
    as,
    syncOne,
  }) => {
    const j = await syncOne(a, "rr", [
      { kind: "MCP", label: "docs", required: true, tools: ["search"] },
    ]);
    const row = await db.job.findUniqueOrThrow({ where: { id: j.jobId } });
    const services = recordingServices();
    const owner = { ...as(a, a.ownerId), services };
    const { grantId } = await approveJob(owner, {
      jobId: j.jobId,
      requestHash: row.requestHash,
    });
    await revokeGrant(owner, { grantId });
    expect((await db.job.findUniqueOrThrow({ where: { id: j.jobId } })).status).toBe(
      "NEEDS_APPROVAL",
    );
    await rejectJob(owner, { jobId: j.jobId });
    expect((await db.job.findUniqueOrThrow({ where: { id: j.jobId } })).status).toBe("REJECTED");
    expect(services.calls).toEqual(
      Array.from({ length: 3 }, () => ({ name: "syncSchedules", arg: a.workspaceId })),
    );
    const actions = (
      await db.auditEvent.findMany({
        where: { OR: [{ targetId: j.jobId }, { targetId: grantId }] },
        orderBy: { createdAt: "asc" },
      })
    ).map((e) => e.action);
    expect(actions).toEqual(["job.approved", "grant.revoked", "job.rejected"]);
  });

  test("[P05] another workspace's ids behave as not found, and non-members see no workspace", async ({
    db,
    tenants: { a, b },
    docs,
    as,
    syncOne,
  }) => {
    const j = await syncOne(a, "iso", [
      { kind: "MCP", label: "docs", required: true, tools: ["search"] },
    ]);
    const row = await db.job.findUniqueOrThrow({ where: { id: j.jobId } });
    const { grantId } = await approveJob(as(a, a.ownerId), {
      jobId: j.jobId,
      requestHash: row.requestHash,
    });
    const otherOwner = as(b, b.ownerId);
    expect(await code(getAccessReview(otherOwner, { jobId: j.jobId }))).toBe("NOT_FOUND");
    expect(
      await code(approveJob(otherOwner, { jobId: j.jobId, requestHash: row.requestHash })),
    ).toBe("NOT_FOUND");
    expect(await code(rejectJob(otherOwner, { jobId: j.jobId }))).toBe("NOT_FOUND");
    expect(await code(revokeGrant(otherOwner, { grantId }))).toBe("NOT_FOUND");
    expect(await code(deleteConnection(otherOwner, { connectionId: docs }))).toBe("NOT_FOUND");
    expect(await code(setAllowedTools(otherOwner, { connectionId: docs, tools: [] }))).toBe(
      "NOT_FOUND",
    );
    // b's owner acting on workspace a without membership
    expect(
      await code(
        getAccessReview(
          { db, actor: { userId: b.ownerId }, workspaceId: a.workspaceId },
          { jobId: j.jobId },
        ),
      ),
    ).toBe("NOT_FOUND");
    // binding a's job to b's connection
    const foreign = await seedConnection(db, keyring, b, {
      kind: "MCP",
      label: "docs",
      tools: [tool("search")],
      allowed: ["search"],
    });
    expect(
      await code(
        approveJob(as(a, a.ownerId), {
          jobId: j.jobId,
          requestHash: row.requestHash,
          bindings: { "MCP:docs": foreign },
        }),
      ),
    ).toBe("NOT_FOUND");
    expect((await db.grant.findUniqueOrThrow({ where: { id: grantId } })).revokedAt).toBeNull();
  });

  test("setAllowedTools refuses tools the service does not offer", async ({
    tenants: { a },
    docs,
    as,
  }) => {
    expect(
      await code(
        setAllowedTools(as(a, a.ownerId), {
          connectionId: docs,
          tools: ["search", "exfiltrate"],
        }),
      ),
    ).toBe("BAD_REQUEST");
  });
});

// Deleting a connection: the owner first sees the jobs it affects; deleting revokes exactly
// those grants (by granted tool or by binding), sends the jobs back to review, and leaves other
// jobs' grants alone (C06).
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import {
  actorContext,
  seedConnection,
  seedJob,
  seedTenant,
  testKeyring,
  tool,
  type Tenant,
} from "../testing/index.ts";
import { getConnectionImpact } from "./impact.ts";
import { deleteConnection } from "./manage.ts";

const keyring = testKeyring();

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
}));

const connection = (db: Db, a: Tenant, label: string) =>
  seedConnection(db, keyring, a, {
    kind: "MCP",
    label,
    tools: [tool("search")],
    allowed: ["search"],
  });

async function grantOn(db: Db, a: Tenant, connectionId: string, withTool: boolean) {
  const jobId = await seedJob(db, a);
  const grant = await db.grant.create({
    data: {
      workspaceId: a.workspaceId,
      jobId,
      requestHash: "h",
      approvedById: a.ownerId,
      bindings: [{ kind: "MCP", label: "docs", connectionId }],
    },
  });
  if (withTool)
    await db.grantTool.create({
      data: { workspaceId: a.workspaceId, grantId: grant.id, connectionId, toolName: "search" },
    });
  return { jobId, grantId: grant.id };
}

describe("connection impact and deletion", () => {
  test("[C06] lists the jobs using the connection; deleting revokes exactly their grants", async ({
    db,
    tenants: { a },
  }) => {
    const docs = await connection(db, a, "docs");
    const other = await connection(db, a, "other");
    const byTool = await grantOn(db, a, docs, true);
    const byBinding = await grantOn(db, a, docs, false);
    const unrelated = await grantOn(db, a, other, true);
    const owner = actorContext(db, a, a.ownerId, { keyring });
    const viewer = actorContext(db, a, a.viewerId);

    const impact = await getConnectionImpact(viewer, { connectionId: docs });
    expect(impact.jobs.map((j) => j.grantId).sort()).toEqual(
      [byTool.grantId, byBinding.grantId].sort(),
    );

    await deleteConnection(owner, { connectionId: docs });
    const grants = await db.grant.findMany({
      where: { id: { in: [byTool.grantId, byBinding.grantId, unrelated.grantId] } },
    });
    const revoked = Object.fromEntries(grants.map((g) => [g.id, g.revokedAt !== null]));
    expect(revoked).toEqual({
      [byTool.grantId]: true,
      [byBinding.grantId]: true,
      [unrelated.grantId]: false,
    });
    const jobs = await db.job.findMany({
      where: { id: { in: [byTool.jobId, unrelated.jobId] } },
      select: { id: true, status: true },
    });
    expect(Object.fromEntries(jobs.map((j) => [j.id, j.status]))).toEqual({
      [byTool.jobId]: "NEEDS_APPROVAL",
      [unrelated.jobId]: "APPROVED",
    });
    const audits = await db.auditEvent.count({
      where: { action: "grant.revoked", connectionId: docs, outcome: "connection_deleted" },
    });
    expect(audits).toBe(2);
  });
});

// Deleting a connection: the owner first sees the jobs it affects; deleting revokes exactly
// those grants (by granted tool or by binding), sends the jobs back to review, and leaves other
// jobs' grants alone (C06).
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

let t: TestDatabase;
let a: Tenant;
const keyring = testKeyring();

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
});
afterAll(async () => t?.drop());

const connection = (label: string) =>
  seedConnection(t.db, keyring, a, {
    kind: "MCP",
    label,
    tools: [tool("search")],
    allowed: ["search"],
  });

async function grantOn(connectionId: string, withTool: boolean) {
  const jobId = await seedJob(t.db, a);
  const grant = await t.db.grant.create({
    data: {
      workspaceId: a.workspaceId,
      jobId,
      requestHash: "h",
      approvedById: a.ownerId,
      bindings: [{ kind: "MCP", label: "docs", connectionId }],
    },
  });
  if (withTool)
    await t.db.grantTool.create({
      data: { workspaceId: a.workspaceId, grantId: grant.id, connectionId, toolName: "search" },
    });
  return { jobId, grantId: grant.id };
}

describe("connection impact and deletion", () => {
  it("[C06] lists the jobs using the connection; deleting revokes exactly their grants", async () => {
    const docs = await connection("docs");
    const other = await connection("other");
    const byTool = await grantOn(docs, true);
    const byBinding = await grantOn(docs, false);
    const unrelated = await grantOn(other, true);
    const owner = actorContext(t.db, a, a.ownerId, { keyring });
    const viewer = actorContext(t.db, a, a.viewerId);

    const impact = await getConnectionImpact(viewer, { connectionId: docs });
    expect(impact.jobs.map((j) => j.grantId).sort()).toEqual(
      [byTool.grantId, byBinding.grantId].sort(),
    );

    await deleteConnection(owner, { connectionId: docs });
    const grants = await t.db.grant.findMany({
      where: { id: { in: [byTool.grantId, byBinding.grantId, unrelated.grantId] } },
    });
    const revoked = Object.fromEntries(grants.map((g) => [g.id, g.revokedAt !== null]));
    expect(revoked).toEqual({
      [byTool.grantId]: true,
      [byBinding.grantId]: true,
      [unrelated.grantId]: false,
    });
    const jobs = await t.db.job.findMany({
      where: { id: { in: [byTool.jobId, unrelated.jobId] } },
      select: { id: true, status: true },
    });
    expect(Object.fromEntries(jobs.map((j) => [j.id, j.status]))).toEqual({
      [byTool.jobId]: "NEEDS_APPROVAL",
      [unrelated.jobId]: "APPROVED",
    });
    const audits = await t.db.auditEvent.count({
      where: { action: "grant.revoked", connectionId: docs, outcome: "connection_deleted" },
    });
    expect(audits).toBe(2);
  });
});

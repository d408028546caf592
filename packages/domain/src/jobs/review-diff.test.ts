import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { deleteConnection } from "../connections/manage.ts";
import { groupKey, storedRequest } from "../request.ts";
import {
  job,
  requestJob,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
} from "../testing/index.ts";
import { approveJob, revokeGrant } from "./decisions.ts";
import { getAccessReview } from "./review.ts";

const keyring = testKeyring();

const test = dbTest
  /** acme, with two MCP connections (docs and wiki) offering and allowing the same tools. */
  .extend("acme", { scope: "file" }, async ({ db }) => {
    const a = await seedTenant(db, "acme");
    const tools = [tool("search"), tool("create_issue", true), tool("delete_page", true)];
    const allowed = ["search", "create_issue", "delete_page"];
    const docs = await seedConnection(db, keyring, a, {
      kind: "MCP",
      label: "docs",
      tools,
      allowed,
    });
    const wiki = await seedConnection(db, keyring, a, {
      kind: "MCP",
      label: "wiki",
      tools,
      allowed,
    });
    return { a, docs, wiki };
  })
  .extend("owner", ({ db, acme: { a } }) => () => ({
    db,
    keyring,
    actor: { userId: a.ownerId },
    workspaceId: a.workspaceId,
  }))
  .extend(
    "sync",
    ({ db, acme: { a } }) =>
      (tools: Parameters<typeof job>[1], key = "triage") =>
        requestJob(db, a, job(key, tools)),
  )
  .extend("approve", ({ db, acme: { docs, wiki }, owner }) => async (jobId: string) => {
    const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
    const ids: Record<string, string> = { "MCP:docs": docs, "MCP:wiki": wiki };
    const groups = storedRequest(row.requestedTools).map(groupKey);
    return approveJob(owner(), {
      jobId,
      requestHash: row.requestHash,
      bindings: Object.fromEntries(groups.map((key) => [key, ids[key]!])),
    });
  });

describe("the access review's diff against the last approval", () => {
  test("a job never approved has no last approval and no changes", async ({ owner, sync }) => {
    const j = await sync([{ kind: "MCP", label: "docs", required: true, tools: ["search"] }]);
    const review = await getAccessReview(owner(), { jobId: j.jobId });
    expect(review.lastApproval).toBeNull();
    expect(review.changes).toEqual([]);
  });

  test("[C04] after a sync widens the request, the review lists exactly what was added, removed and kept", async ({
    acme: { docs, wiki },
    owner,
    sync,
    approve,
  }) => {
    const j = await sync([
      { kind: "MCP", label: "docs", required: true, tools: ["search", "delete_page"] },
      { kind: "MCP", label: "wiki", required: false, tools: ["search"] },
    ]);
    const { grantId } = await approve(j.jobId);
    const approved = await getAccessReview(owner(), { jobId: j.jobId });
    expect(approved.lastApproval).toMatchObject({
      id: grantId,
      sameRequest: true,
      revokedAt: null,
    });
    expect(approved.changes.map((c) => [c.key, c.change, c.unchanged])).toEqual([
      ["MCP:docs", "unchanged", ["delete_page", "search"]],
      ["MCP:wiki", "unchanged", ["search"]],
    ]);

    // The repository now asks for create_issue instead of delete_page, drops the wiki and adds
    // GitHub: the approval no longer matches, so the job waits and the review shows the change.
    await sync([
      { kind: "MCP", label: "docs", required: true, tools: ["search", "create_issue"] },
      { kind: "GITHUB", label: null, required: false, tools: ["list_issues"] },
    ]);
    const review = await getAccessReview(owner(), { jobId: j.jobId });
    expect(review.job.status).toBe("NEEDS_APPROVAL");
    expect(review.grant).toBeNull();
    expect(review.lastApproval).toMatchObject({ id: grantId, sameRequest: false });
    expect(review.changes).toEqual([
      {
        key: "GITHUB:",
        kind: "GITHUB",
        label: null,
        change: "added",
        previousConnection: null,
        connection: null,
        bindingChanged: false,
        added: [{ name: "list_issues", mayChangeData: true }],
        removed: [],
        unchanged: [],
      },
      {
        key: "MCP:docs",
        kind: "MCP",
        label: "docs",
        change: "changed",
        previousConnection: { id: docs, label: "docs" },
        // Two MCP connections: nothing is preselected until the owner chooses (C01).
        connection: null,
        bindingChanged: false,
        added: [{ name: "create_issue", mayChangeData: true }],
        removed: [{ name: "delete_page", mayChangeData: true }],
        unchanged: ["search"],
      },
      {
        key: "MCP:wiki",
        kind: "MCP",
        label: "wiki",
        change: "removed",
        previousConnection: { id: wiki, label: "wiki" },
        connection: null,
        bindingChanged: false,
        added: [],
        removed: [{ name: "search", mayChangeData: false }],
        unchanged: [],
      },
    ]);
  });

  test("a revoked approval is still the last one the owner gave, and says so", async ({
    owner,
    sync,
    approve,
  }) => {
    const j = await sync([{ kind: "MCP", label: "docs", required: true, tools: ["search"] }]);
    const { grantId } = await approve(j.jobId);
    await revokeGrant(owner(), { grantId });
    const review = await getAccessReview(owner(), { jobId: j.jobId });
    expect(review.grant).toBeNull();
    expect(review.lastApproval?.id).toBe(grantId);
    expect(review.lastApproval?.revokedAt).toBeInstanceOf(Date);
    expect(review.changes.map((c) => c.change)).toEqual(["unchanged"]);
  });

  test("a group bound to a connection that was deleted since shows the binding change", async ({
    db,
    acme: { a },
    owner,
    sync,
  }) => {
    const github = {
      kind: "GITHUB" as const,
      tools: [tool("list_issues")],
      allowed: ["list_issues"],
    };
    const first = await seedConnection(db, keyring, a, { ...github, label: "GitHub one" });
    const request = [
      { kind: "GITHUB" as const, label: null, required: true, tools: ["list_issues"] },
    ];
    const j = await sync(request, "gh");
    const row = await db.job.findUniqueOrThrow({ where: { id: j.jobId } });
    await approveJob(owner(), { jobId: j.jobId, requestHash: row.requestHash });
    // Deleting the connection revokes the grant; the only GitHub connection now is another one.
    await deleteConnection(owner(), { connectionId: first });
    const second = await seedConnection(db, keyring, a, { ...github, label: "GitHub two" });
    const review = await getAccessReview(owner(), { jobId: j.jobId });
    expect(review.lastApproval?.revokedAt).toBeInstanceOf(Date);
    expect(review.changes).toEqual([
      expect.objectContaining({
        key: "GITHUB:",
        change: "changed",
        previousConnection: { id: first, label: "GitHub one (deleted)" },
        connection: { id: second, label: "GitHub two" },
        bindingChanged: true,
        added: [],
        removed: [],
        unchanged: ["list_issues"],
      }),
    ]);
  });
});

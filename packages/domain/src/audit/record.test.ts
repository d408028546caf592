import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { createConnection, setAllowedTools, storeDiscoveredTools } from "../connections/manage.ts";
import { actorContext, seedTenant, testKeyring, tool } from "../testing/index.ts";
import { listAuditEvents } from "./list.ts";
import { recordAudit } from "./record.ts";

const keyring = testKeyring();

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
}));

describe("recordAudit", () => {
  test("[C29] a credential, OAuth tokens and tool schemas given to connection use cases appear in no audit row", async ({
    db,
    tenants: { a },
  }) => {
    const planted = ["cred-8f3a9c1e-secret", "oauth-access-77d2", "oauth-refresh-91b4"];
    const ctx = actorContext(db, a, a.ownerId, { keyring });
    const { id } = await createConnection(ctx, {
      kind: "MCP",
      label: "docs",
      endpoint: "https://mcp.example.test/mcp",
      authType: "BEARER",
      credential: planted[0],
      oauth: {
        accessToken: planted[1]!,
        refreshToken: planted[2]!,
        expiresAt: null,
        config: {},
      },
    });
    await storeDiscoveredTools(ctx, {
      connectionId: id,
      tools: [tool("search", false, { type: "object", description: "schema-marker-5521" })],
    });
    await setAllowedTools(ctx, { connectionId: id, tools: ["search"] });
    const rows = await db.auditEvent.findMany({ where: { workspaceId: a.workspaceId } });
    expect(rows.map((r) => r.action)).toEqual([
      "connection.created",
      "connection.tools_discovered",
      "connection.tools_allowed",
    ]);
    const text = JSON.stringify(rows);
    for (const secret of [...planted, "schema-marker-5521"]) expect(text).not.toContain(secret);
  });

  test("[C29] refuses an outcome that is text rather than a code, so no argument or response can ride along", async ({
    db,
    tenants: { a },
  }) => {
    const before = await db.auditEvent.count();
    for (const outcome of ['{"q":"select * from users"}', "token ss_run_abc def", "x".repeat(65)]) {
      await expect(
        recordAudit(db, {
          workspaceId: a.workspaceId,
          actorType: "SYSTEM",
          actorId: "scheduler",
          action: "schedule.skipped",
          targetType: "Job",
          outcome,
        }),
      ).rejects.toMatchObject({ code: "INTERNAL", reason: "AUDIT_OUTCOME_NOT_A_CODE" });
    }
    expect(await db.auditEvent.count()).toBe(before);
  });

  test("lists a workspace's events newest first, one page at a time", async ({
    db,
    tenants: { a },
  }) => {
    const ctx = actorContext(db, a, a.viewerId);
    for (let i = 0; i < 5; i++) {
      await recordAudit(db, {
        workspaceId: a.workspaceId,
        actorType: "USER",
        actorId: a.ownerId,
        action: "job.paused",
        targetType: "Job",
        targetId: `job-${i}`,
      });
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAuditEvents(ctx, cursor ? { limit: 3, cursor } : { limit: 3 });
      expect(page.items.length).toBeLessThanOrEqual(3);
      seen.push(...page.items.map((e) => e.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    const total = await db.auditEvent.count({ where: { workspaceId: a.workspaceId } });
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect(seen).toEqual([...seen].sort().reverse());
  });
});

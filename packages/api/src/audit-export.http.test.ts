// The audit export over HTTP: the session cookie authenticates it like a procedure, the domain
// use case authorizes it (every member reads the log, C29), rows stream in cursor pages, and a
// CSV cell that a spreadsheet would run as a formula is neutralised.
import { randomUUID } from "node:crypto";
import { exportAuditEvents, EXPORT_PAGE_ROWS } from "@secondshift/domain";
import { actorContext, testKeyring } from "@secondshift/domain/testing";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { AUDIT_EXPORT_PATH, csvCell } from "./audit-export.ts";
import { startTestApi, type TestApi } from "./testing/index.ts";
import { seedHttpTenant, signedInBrowser } from "./testing/tenants.ts";

const ROWS = 10_000;
const connectionId = randomUUID();
const FORMULA = '=HYPERLINK("http://evil.test","x")';
const keyring = testKeyring();

const test = dbTest
  .extend("api", { scope: "file" }, async ({ db }, { onCleanup }) => {
    const api = await startTestApi(db, { keyring });
    onCleanup(() => api.close());
    return api;
  })
  .extend("acme", { scope: "file" }, async ({ db }) => {
    const acme = await seedHttpTenant(db, keyring, "acme");
    // 10,000 tool calls, one second apart, in one statement; every 100th on one connection, and
    // one whose tool name is a spreadsheet formula.
    await db.$executeRaw`
      INSERT INTO "AuditEvent" ("id", "workspaceId", "actorType", "actorId", "action", "toolName",
                                "connectionId", "outcome", "durationMs", "createdAt")
      SELECT gen_random_uuid(), ${acme.workspaceId}, 'RUN', 'run-' || i, 'tool.call',
             CASE WHEN i = 1 THEN ${FORMULA} ELSE 'search' END,
             CASE WHEN i % 100 = 0 THEN ${connectionId} ELSE NULL END,
             'ok', i, TIMESTAMP '2026-01-01' + i * INTERVAL '1 second'
      FROM generate_series(1, ${ROWS}) AS i`;
    // gen_random_uuid() is v4 (not time-ordered): order the ids like UUID v7 rows would be.
    await db.$executeRaw`
      UPDATE "AuditEvent" SET "id" = lpad(to_hex(("durationMs")::int), 8, '0') || substr("id", 9)
      WHERE "workspaceId" = ${acme.workspaceId} AND "action" = 'tool.call'`;
    return acme;
  })
  .extend("other", { scope: "file" }, ({ db }) => seedHttpTenant(db, keyring, "other"))
  .extend("viewer", { scope: "file" }, ({ api, acme }) => signedInBrowser(api, acme.emails.viewer))
  .extend("stranger", { scope: "file" }, ({ api, other }) =>
    signedInBrowser(api, other.emails.owner),
  );

const exportUrl = (api: TestApi, params: Record<string, string>) =>
  `${api.origin}${AUDIT_EXPORT_PATH}?${new URLSearchParams(params).toString()}`;

describe("audit export", () => {
  test("streams every row as NDJSON, newest first, in more than one chunk", async ({
    api,
    acme,
    other,
    viewer,
  }) => {
    const response = await viewer.fetch(exportUrl(api, { workspaceId: acme.workspaceId }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-ndjson; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-/);
    let chunks = 0;
    let text = "";
    const decoder = new TextDecoder();
    for await (const chunk of response.body!) {
      chunks += 1;
      text += decoder.decode(chunk as Uint8Array, { stream: true });
    }
    const rows = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { id: string; action: string; actorId: string });
    // The export's own audit row (written before the first page) comes first.
    expect(rows[0]).toMatchObject({ action: "audit.exported", actorId: acme.viewerId });
    const calls = rows.filter((r) => r.action === "tool.call");
    expect(calls).toHaveLength(ROWS);
    expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
    expect(rows.map((r) => r.id)).toEqual(
      rows
        .map((r) => r.id)
        .sort()
        .reverse(),
    );
    expect(chunks).toBeGreaterThan(1);
    expect(text).not.toContain(other.workspaceId);
  });

  test("reads the log in cursor pages of at most EXPORT_PAGE_ROWS rows", async ({ db, acme }) => {
    const pages = await exportAuditEvents(actorContext(db, acme, acme.viewerId), {
      action: "tool.call",
    });
    const sizes: number[] = [];
    for await (const page of pages) sizes.push(page.length);
    expect(sizes.length).toBe(Math.ceil(ROWS / EXPORT_PAGE_ROWS));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(EXPORT_PAGE_ROWS);
    expect(sizes.reduce((x, y) => x + y, 0)).toBe(ROWS);
  });

  test("exports CSV with a header, quoted cells and formulas neutralised; filters apply", async ({
    api,
    acme,
    viewer,
  }) => {
    const response = await viewer.fetch(
      exportUrl(api, { workspaceId: acme.workspaceId, format: "csv", action: "tool.call" }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await response.text()).trimEnd().split("\n");
    expect(lines[0]).toBe(
      '"id","createdAt","actorType","actorId","action","targetType","targetId","targetLabel","toolName","connectionId","outcome","durationMs"',
    );
    expect(lines).toHaveLength(ROWS + 1);
    const formulaLine = lines.find((line) => line.includes("HYPERLINK"))!;
    expect(formulaLine).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(lines.filter((line) => line.includes('",="'))).toEqual([]);

    const byConnection = await viewer.fetch(
      exportUrl(api, { workspaceId: acme.workspaceId, format: "csv", connectionId }),
    );
    expect((await byConnection.text()).trimEnd().split("\n")).toHaveLength(ROWS / 100 + 1);
    const window = await viewer.fetch(
      exportUrl(api, {
        workspaceId: acme.workspaceId,
        action: "tool.call",
        since: "2026-01-01T00:00:01Z",
        until: "2026-01-01T00:00:11Z",
      }),
    );
    expect((await window.text()).trim().split("\n")).toHaveLength(10);
  });

  test("audit.list pages the same filters (tool, connection, actor) for the screen", async ({
    acme,
    viewer,
  }) => {
    const list = (filters: Record<string, unknown>) =>
      viewer.trpc.audit.list.query({ workspaceId: acme.workspaceId, limit: 100, ...filters });
    const byTool = await list({ toolName: FORMULA });
    expect(byTool.items.map((e) => e.toolName)).toEqual([FORMULA]);
    const byConnection = await list({ connectionId });
    expect(byConnection.items).toHaveLength(ROWS / 100);
    expect(new Set(byConnection.items.map((e) => e.connectionId))).toEqual(new Set([connectionId]));
    const byActor = await list({ actorId: "run-7" });
    expect(byActor.items.map((e) => e.actorId)).toEqual(["run-7"]);
    const first = await list({ action: "tool.call" });
    const second = await list({ action: "tool.call", cursor: first.nextCursor! });
    expect(second.items[0]!.id < first.items.at(-1)!.id).toBe(true);
  });

  test("neutralises every formula-leading character in a cell", () => {
    for (const value of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) {
      expect(csvCell(value)).toBe(`'${value}`);
    }
    expect(csvCell("search")).toBe("search");
    expect(csvCell(null)).toBe("");
    expect(csvCell(new Date("2026-01-01T00:00:00Z"))).toBe("2026-01-01T00:00:00.000Z");
  });

  test("[P05] a member of another workspace gets 404 and no row; signed out gets 401", async ({
    db,
    api,
    acme,
    stranger,
  }) => {
    const before = await db.auditEvent.count({ where: { workspaceId: acme.workspaceId } });
    const foreign = await stranger.fetch(exportUrl(api, { workspaceId: acme.workspaceId }));
    expect(foreign.status).toBe(404);
    const body = await foreign.text();
    expect(body).not.toContain("tool.call");
    const signedOut = await api.browser().fetch(exportUrl(api, { workspaceId: acme.workspaceId }));
    expect(signedOut.status).toBe(401);
    expect(await db.auditEvent.count({ where: { workspaceId: acme.workspaceId } })).toBe(before);
  });

  test("refuses a cross-site start, a write method and a bad query before reading anything", async ({
    api,
    acme,
    viewer,
  }) => {
    const url = exportUrl(api, { workspaceId: acme.workspaceId });
    const crossSite = await viewer.fetch(url, { headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const post = await viewer.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(post.status).toBe(405);
    const bad = await viewer.fetch(
      exportUrl(api, { workspaceId: acme.workspaceId, format: "xlsx" }),
    );
    expect(bad.status).toBe(400);
  });
});

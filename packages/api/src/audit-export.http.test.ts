// The audit export over HTTP: the session cookie authenticates it like a procedure, the domain
// use case authorizes it (every member reads the log, C29), rows stream in cursor pages, and a
// CSV cell that a spreadsheet would run as a formula is neutralised.
import { randomUUID } from "node:crypto";
import { exportAuditEvents, EXPORT_PAGE_ROWS } from "@secondshift/access";
import { actorContext, testKeyring } from "@secondshift/access/testing";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUDIT_EXPORT_PATH, csvCell } from "./audit-export.ts";
import { startTestApi, type TestApi, type TestBrowser } from "./testing/index.ts";
import { seedHttpTenant, signedInBrowser, type HttpTenant } from "./testing/tenants.ts";

let t: TestDatabase;
let api: TestApi;
let a: HttpTenant;
let b: HttpTenant;
let viewer: TestBrowser;
let stranger: TestBrowser;
const ROWS = 10_000;
const connectionId = randomUUID();
const FORMULA = '=HYPERLINK("http://evil.test","x")';

beforeAll(async () => {
  t = await createTestDatabase();
  const keyring = testKeyring();
  api = await startTestApi(t.db, { keyring });
  a = await seedHttpTenant(t.db, keyring, "acme");
  b = await seedHttpTenant(t.db, keyring, "other");
  // 10,000 tool calls, one second apart, in one statement; every 100th on one connection, and
  // one whose tool name is a spreadsheet formula.
  await t.db.$executeRaw`
    INSERT INTO "AuditEvent" ("id", "workspaceId", "actorType", "actorId", "action", "toolName",
                              "connectionId", "outcome", "durationMs", "createdAt")
    SELECT gen_random_uuid(), ${a.workspaceId}, 'RUN', 'run-' || i, 'tool.call',
           CASE WHEN i = 1 THEN ${FORMULA} ELSE 'search' END,
           CASE WHEN i % 100 = 0 THEN ${connectionId} ELSE NULL END,
           'ok', i, TIMESTAMP '2026-01-01' + i * INTERVAL '1 second'
    FROM generate_series(1, ${ROWS}) AS i`;
  // gen_random_uuid() is v4 (not time-ordered): order the ids like UUID v7 rows would be.
  await t.db.$executeRaw`
    UPDATE "AuditEvent" SET "id" = lpad(to_hex(("durationMs")::int), 8, '0') || substr("id", 9)
    WHERE "workspaceId" = ${a.workspaceId} AND "action" = 'tool.call'`;
  viewer = await signedInBrowser(api, a.emails.viewer);
  stranger = await signedInBrowser(api, b.emails.owner);
});
afterAll(async () => {
  await api?.close();
  await t?.drop();
});

const exportUrl = (params: Record<string, string>) =>
  `${api.origin}${AUDIT_EXPORT_PATH}?${new URLSearchParams(params).toString()}`;

describe("audit export", () => {
  it("streams every row as NDJSON, newest first, in more than one chunk", async () => {
    const response = await viewer.fetch(exportUrl({ workspaceId: a.workspaceId }));
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
    expect(rows[0]).toMatchObject({ action: "audit.exported", actorId: a.viewerId });
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
    expect(text).not.toContain(b.workspaceId);
  });

  it("reads the log in cursor pages of at most EXPORT_PAGE_ROWS rows", async () => {
    const pages = await exportAuditEvents(actorContext(t.db, a, a.viewerId), {
      action: "tool.call",
    });
    const sizes: number[] = [];
    for await (const page of pages) sizes.push(page.length);
    expect(sizes.length).toBe(Math.ceil(ROWS / EXPORT_PAGE_ROWS));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(EXPORT_PAGE_ROWS);
    expect(sizes.reduce((x, y) => x + y, 0)).toBe(ROWS);
  });

  it("exports CSV with a header, quoted cells and formulas neutralised; filters apply", async () => {
    const response = await viewer.fetch(
      exportUrl({ workspaceId: a.workspaceId, format: "csv", action: "tool.call" }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = (await response.text()).trimEnd().split("\n");
    expect(lines[0]).toBe(
      '"id","createdAt","actorType","actorId","action","targetType","targetId","toolName","connectionId","outcome","durationMs"',
    );
    expect(lines).toHaveLength(ROWS + 1);
    const formulaLine = lines.find((line) => line.includes("HYPERLINK"))!;
    expect(formulaLine).toContain(`"'=HYPERLINK(""http://evil.test"",""x"")"`);
    expect(lines.filter((line) => line.includes('",="'))).toEqual([]);

    const byConnection = await viewer.fetch(
      exportUrl({ workspaceId: a.workspaceId, format: "csv", connectionId }),
    );
    expect((await byConnection.text()).trimEnd().split("\n")).toHaveLength(ROWS / 100 + 1);
    const window = await viewer.fetch(
      exportUrl({
        workspaceId: a.workspaceId,
        action: "tool.call",
        since: "2026-01-01T00:00:01Z",
        until: "2026-01-01T00:00:11Z",
      }),
    );
    expect((await window.text()).trim().split("\n")).toHaveLength(10);
  });

  it("audit.list pages the same filters (tool, connection, actor) for the screen", async () => {
    const list = (filters: Record<string, unknown>) =>
      viewer.trpc.audit.list.query({ workspaceId: a.workspaceId, limit: 100, ...filters });
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

  it("neutralises every formula-leading character in a cell", () => {
    for (const value of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx"]) {
      expect(csvCell(value)).toBe(`'${value}`);
    }
    expect(csvCell("search")).toBe("search");
    expect(csvCell(null)).toBe("");
    expect(csvCell(new Date("2026-01-01T00:00:00Z"))).toBe("2026-01-01T00:00:00.000Z");
  });

  it("[P05] a member of another workspace gets 404 and no row; signed out gets 401", async () => {
    const before = await t.db.auditEvent.count({ where: { workspaceId: a.workspaceId } });
    const foreign = await stranger.fetch(exportUrl({ workspaceId: a.workspaceId }));
    expect(foreign.status).toBe(404);
    const body = await foreign.text();
    expect(body).not.toContain("tool.call");
    const signedOut = await api.browser().fetch(exportUrl({ workspaceId: a.workspaceId }));
    expect(signedOut.status).toBe(401);
    expect(await t.db.auditEvent.count({ where: { workspaceId: a.workspaceId } })).toBe(before);
  });

  it("refuses a cross-site start, a write method and a bad query before reading anything", async () => {
    const url = exportUrl({ workspaceId: a.workspaceId });
    const crossSite = await viewer.fetch(url, { headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status).toBe(403);
    const post = await viewer.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(post.status).toBe(405);
    const bad = await viewer.fetch(exportUrl({ workspaceId: a.workspaceId, format: "xlsx" }));
    expect(bad.status).toBe(400);
  });
});

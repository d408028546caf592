import { describe, expect, it } from "vitest";
import { auditExportHref, auditListInput, matchesShown, NO_AUDIT_FILTERS } from "./audit-query.ts";

const ws = "01900000-0000-7000-8000-000000000001";
const conn = "01900000-0000-7000-8000-000000000002";

describe("audit filters", () => {
  it("the export link carries the workspace, the format and the same filters, days as UTC bounds", () => {
    const href = auditExportHref(ws, "csv", {
      ...NO_AUDIT_FILTERS,
      action: " tool.called ",
      connectionId: conn,
      since: "2026-11-01",
      until: "2026-11-30",
    });
    const url = new URL(href, "http://x");
    expect(url.pathname).toBe("/api/audit/export");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      workspaceId: ws,
      format: "csv",
      action: "tool.called",
      connectionId: conn,
      since: "2026-11-01T00:00:00.000Z",
      until: "2026-11-30T23:59:59.999Z",
    });
  });

  it("the list input leaves out empty filters", () => {
    expect(auditListInput(ws, NO_AUDIT_FILTERS)).toEqual({ workspaceId: ws, limit: 50 });
  });

  it("connection and tool filters also hold on what is shown", () => {
    const filters = { ...NO_AUDIT_FILTERS, connectionId: conn, toolName: "echo" };
    expect(matchesShown({ connectionId: conn, toolName: "echo" }, filters)).toBe(true);
    expect(matchesShown({ connectionId: conn, toolName: "other" }, filters)).toBe(false);
    expect(matchesShown({ connectionId: null, toolName: "echo" }, filters)).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { auditExportHref, auditListInput, NO_AUDIT_FILTERS } from "./audit-query.ts";

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

  it("sends the connection and tool filters to the API, which filters by them", () => {
    expect(
      auditListInput(ws, { ...NO_AUDIT_FILTERS, connectionId: conn, toolName: " echo " }),
    ).toEqual({ workspaceId: ws, limit: 50, connectionId: conn, toolName: "echo" });
  });
});

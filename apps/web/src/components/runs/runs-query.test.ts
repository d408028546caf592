import { describe, expect, it } from "vitest";
import { NO_FILTERS, parseRunFilters, runsListInput } from "./runs-query.ts";

describe("runs filters", () => {
  it("sends status, trigger, job and the queued days as UTC bounds; nothing for empty filters", () => {
    expect(runsListInput("w", NO_FILTERS)).toEqual({ workspaceId: "w", limit: 50 });
    expect(
      runsListInput("w", {
        status: "FAILED",
        trigger: "EVENT",
        jobId: "j",
        since: "2026-11-02",
        until: "2026-11-03",
      }),
    ).toEqual({
      workspaceId: "w",
      limit: 50,
      status: ["FAILED"],
      trigger: "EVENT",
      jobId: "j",
      since: new Date("2026-11-02T00:00:00.000Z"),
      until: new Date("2026-11-03T23:59:59.999Z"),
    });
  });

  it("reads the filters from the URL; a stale status and a day that is not whole filter nothing", () => {
    const params = new URLSearchParams(
      "status=FAILED&trigger=EVENT&jobId=j&since=2026-11-02&until=2026-1&x=1",
    );
    expect(parseRunFilters(params)).toEqual({
      status: "FAILED",
      trigger: "EVENT",
      jobId: "j",
      since: "2026-11-02",
      until: "2026-1",
    });
    expect(parseRunFilters(new URLSearchParams("status=BOGUS")).status).toBe("");
    expect(parseRunFilters(new URLSearchParams("trigger=PUSH")).trigger).toBe("");
    expect(runsListInput("w", parseRunFilters(params))).toEqual({
      workspaceId: "w",
      limit: 50,
      status: ["FAILED"],
      trigger: "EVENT",
      jobId: "j",
      since: new Date("2026-11-02T00:00:00.000Z"),
    });
    expect(runsListInput("w", { ...NO_FILTERS, since: "2026-02-31" })).toEqual({
      workspaceId: "w",
      limit: 50,
    });
  });
});

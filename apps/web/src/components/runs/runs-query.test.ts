import { describe, expect, it } from "vitest";
import { NO_FILTERS, runsListInput } from "./runs-query.ts";

describe("runs filters", () => {
  it("sends status, job and the queued days as UTC bounds; nothing for empty filters", () => {
    expect(runsListInput("w", NO_FILTERS)).toEqual({ workspaceId: "w", limit: 50 });
    expect(
      runsListInput("w", {
        status: "FAILED",
        jobId: "j",
        since: "2026-11-02",
        until: "2026-11-03",
      }),
    ).toEqual({
      workspaceId: "w",
      limit: 50,
      status: ["FAILED"],
      jobId: "j",
      since: new Date("2026-11-02T00:00:00.000Z"),
      until: new Date("2026-11-03T23:59:59.999Z"),
    });
  });
});

import { describe, expect, it } from "vitest";
import { readFilters, searchParamsOf, withFilters } from "./url-filters.ts";

describe("filters in the URL", () => {
  it("reads a page's search params as the list's filters, the first of a repeated name", () => {
    const params = searchParamsOf({
      action: ["a.b", "c.d"],
      since: "2026-12-01",
      other: undefined,
    });
    expect(readFilters(params, { action: "", since: "", until: "" })).toEqual({
      action: "a.b",
      since: "2026-12-01",
      until: "",
    });
  });

  it("writes the set filters, drops the empty ones and keeps other params", () => {
    expect(withFilters("keep=1&status=FAILED", { status: "", jobId: "j k" })).toBe(
      "keep=1&jobId=j+k",
    );
  });
});

import { describe, expect, it } from "vitest";
import { buildResult, cutUtf8 } from "./result.ts";

describe("result capping", () => {
  it("never splits a UTF-8 character", () => {
    const { text, cut } = cutUtf8("ab€€", 4); // € is 3 bytes
    expect(cut).toBe(true);
    expect(text).toBe("ab");
  });

  it("caps the total over several parts and marks the cut", () => {
    const result = buildResult(["12345", "67890", "abcde"], 8);
    expect(result.truncated).toBe(true);
    expect(result.content.map((c) => c.text).join("")).toMatch(/^12345678\n\[truncated/);
  });

  it("leaves a result within the cap untouched", () => {
    expect(buildResult(["ok"], 10)).toEqual({
      content: [{ type: "text", text: "ok" }],
      isError: false,
      truncated: false,
    });
  });
});

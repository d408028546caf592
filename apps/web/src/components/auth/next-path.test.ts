import { describe, expect, it } from "vitest";
import { safeNextPath, signInPath } from "./next-path.ts";

describe("safeNextPath: where sign-in may send the user afterwards", () => {
  it.each(["/", "/connections?oauth=failed&reason=SIGNED_OUT", "/w/abc/runs?status=FAILED"])(
    "follows a path on this site: %s",
    (path) => expect(safeNextPath(path)).toBe(path),
  );

  it.each([
    ["another site", "https://evil.example/"],
    ["a protocol-relative URL", "//evil.example/"],
    ["a backslash that browsers read as a slash", "/\\evil.example/"],
    ["a tab hiding a second slash", "/\t/evil.example/"],
    ["a script URL", "javascript:alert(1)"],
    ["nothing", ""],
    ["an absurdly long path", `/${"a".repeat(2000)}`],
  ])("refuses %s (an open redirect)", (_name, next) => {
    expect(safeNextPath(next)).toBeNull();
  });

  it("builds the sign-in link with the path encoded", () => {
    expect(signInPath("/connections?oauth=failed&reason=X")).toBe(
      "/sign-in?next=%2Fconnections%3Foauth%3Dfailed%26reason%3DX",
    );
  });
});

import { describe, expect, it } from "vitest";
import { outputHeadline } from "./output-state.ts";
import { changeSummary, patchLines } from "./pull-request-diff.tsx";

describe("a proposed pull request's words", () => {
  it("names it by its title and its size as GitHub does", () => {
    expect(outputHeadline({ kind: "pull_request", number: null, title: "Bump lodash" })).toBe(
      'Pull request "Bump lodash"',
    );
    expect(outputHeadline({ kind: "issue", number: null, title: "[deps] x" })).toBe(
      "New issue: [deps] x",
    );
    expect(changeSummary({ files: 1, additions: 3, deletions: 0 })).toBe("1 file changed, +3 −0");
    expect(changeSummary({ files: 3, additions: 12, deletions: 4 })).toBe(
      "3 files changed, +12 −4",
    );
  });

  it("reads a jsdiff patch from its first hunk: added, removed, context, hunk and notes", () => {
    const patch = [
      "Index: a.txt",
      "===================================================================",
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -1,3 +1,3 @@",
      " keep",
      "-old",
      "+new",
      "--- not a header inside a hunk",
      "\\ No newline at end of file",
      "",
    ].join("\n");
    expect(patchLines(patch)).toEqual([
      { kind: "hunk", text: "@@ -1,3 +1,3 @@" },
      { kind: "context", text: " keep" },
      { kind: "del", text: "-old" },
      { kind: "add", text: "+new" },
      { kind: "del", text: "--- not a header inside a hunk" },
      { kind: "note", text: "\\ No newline at end of file" },
    ]);
    expect(patchLines("(big.bin: too large a change to show here)")).toEqual([
      { kind: "note", text: "(big.bin: too large a change to show here)" },
    ]);
    expect(patchLines("")).toEqual([]);
  });
});

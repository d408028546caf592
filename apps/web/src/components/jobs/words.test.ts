import { describe, expect, it } from "vitest";
import {
  accessSentences,
  changeSentences,
  groupTitle,
  outputSentences,
  toolWords,
} from "./review-words.ts";
import { scheduleInWords } from "./words.ts";

describe("the review and schedules in words", () => {
  it("says what may change data and what only reads, with tool names as words", () => {
    expect(
      accessSentences("GitHub", [
        { name: "create_issue", mayChangeData: true },
        { name: "merge-pull-request", mayChangeData: true },
        { name: "list_issues", mayChangeData: false },
      ]),
    ).toEqual([
      "This job may change data in GitHub: create issue and merge pull request.",
      "It may read from GitHub: list issues.",
    ]);
    expect(accessSentences("Sentry", [])).toEqual(["This job would get no tool in Sentry."]);
    expect(toolWords("search__docs")).toBe("search docs");
    expect(groupTitle({ kind: "MCP", label: "docs" })).toBe('MCP server "docs"');
    expect(groupTitle({ kind: "GITHUB", label: null })).toBe("GitHub");
  });

  it("reads a cron expression with its timezone, and falls back to the expression", () => {
    expect(scheduleInWords("30 6 * * 1", "Europe/Paris")).toBe(
      "At 06:30, only on Monday (Europe/Paris)",
    );
    expect(scheduleInWords("not cron", "UTC")).toBe("not cron (UTC)");
    expect(scheduleInWords(null, "UTC")).toMatch(/No schedule/);
  });
});

describe("what changed since the last approval, in words", () => {
  const change = {
    kind: "MCP" as const,
    label: "docs",
    change: "changed" as const,
    previousConnection: { label: "docs A" },
    connection: { label: "docs B" },
    bindingChanged: true,
    added: [{ name: "create_issue", mayChangeData: true }],
    removed: [{ name: "search", mayChangeData: false }],
    unchanged: ["fetch_page"],
  };
  it("names what is new, what is gone, a changed connection and what stays", () => {
    expect(changeSentences(change)).toEqual([
      'New since the last approval: MCP server "docs" — create issue (may change data).',
      'No longer requested: MCP server "docs" — search.',
      'Connection changed: MCP server "docs" was approved on "docs A" and is now bound to "docs B".',
      'Unchanged: MCP server "docs" — fetch page.',
    ]);
  });
  it("for the same request, what was not granted is what the owner left out, not new", () => {
    expect(changeSentences({ ...change, removed: [], bindingChanged: false }, true)).toEqual([
      'Requested but not granted then: MCP server "docs" — create issue (may change data).',
      'Unchanged: MCP server "docs" — fetch page.',
    ]);
  });
  it("a group no longer requested that was granted nothing is still named", () => {
    const gone = { kind: "SENTRY" as const, label: null, change: "removed" as const };
    const nothing = { previousConnection: null, connection: null, bindingChanged: false };
    expect(changeSentences({ ...gone, ...nothing, added: [], removed: [], unchanged: [] })).toEqual(
      ["No longer requested: Sentry."],
    );
  });

  it("says in the approval what each granted output kind may do and whether it waits for the owner", () => {
    expect(
      outputSentences({
        comment: { mode: "auto", max: 2 },
        pull_request: { mode: "hold", maxFiles: 10, maxChangedLines: 500 },
      }),
    ).toEqual([
      "Pull requests: one per run, at most 10 files and 500 changed lines, held for your approval.",
      "Comments: at most 2 per run, applied automatically.",
    ]);
    expect(outputSentences({})).toEqual([]);
  });
});

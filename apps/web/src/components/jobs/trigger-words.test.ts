import { describe, expect, it } from "vitest";
import { orInWords, triggerSentences } from "./trigger-words.ts";

describe("the access review's triggers in words", () => {
  it("[C04] says each requested trigger as a sentence", () => {
    expect(
      triggerSentences(
        {
          pull_request: { actions: ["opened", "synchronize"], bots: false },
          issue: { actions: ["opened"], labels: ["triage"], bots: false },
          comment_command: { bots: false },
        },
        "reviewer",
      ),
    ).toEqual([
      "When a pull request is opened or gets new commits",
      "When an issue is opened with the label triage",
      "When someone comments /secondshift reviewer",
    ]);
  });

  it("names every action, labels added later, several labels and bots", () => {
    expect(
      triggerSentences(
        {
          pull_request: {
            actions: ["opened", "synchronize", "reopened", "ready_for_review"],
            bots: true,
          },
          issue: { actions: ["opened", "labeled"], labels: ["bug", "triage"], bots: false },
          comment_command: { bots: true },
        },
        "fix-it",
      ),
    ).toEqual([
      "When a pull request is opened, gets new commits, is reopened or is marked ready for review, other bots (such as Dependabot) included",
      "When an issue is opened with, or later gets, one of the labels bug or triage",
      "When someone comments /secondshift fix-it, other bots (such as Dependabot) included",
    ]);
    expect(
      triggerSentences({ issue: { actions: ["labeled"], labels: ["triage"], bots: false } }, "x"),
    ).toEqual(["When an issue gets the label triage"]);
    expect(
      triggerSentences({ issue: { actions: ["opened"], labels: [], bots: false } }, "x"),
    ).toEqual(["When an issue is opened"]);
  });

  it("says nothing for a job without triggers", () => {
    expect(triggerSentences({}, "nightly")).toEqual([]);
    expect(orInWords([])).toBe("");
  });
});

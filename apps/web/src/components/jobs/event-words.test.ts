import { describe, expect, it } from "vitest";
import { actorWords, dropWords, eventKindWords } from "./event-words.ts";

describe("events in words", () => {
  it("says the kind and action, the actor with their permission, and the drop reason", () => {
    expect(eventKindWords("pull_request", "ready_for_review")).toBe(
      "Pull request ready for review",
    );
    expect(actorWords({ actorLogin: "octocat", actorIsBot: false, actorPermission: "write" })).toBe(
      "octocat (write)",
    );
    expect(
      actorWords({ actorLogin: "renovate[bot]", actorIsBot: true, actorPermission: null }),
    ).toBe("renovate[bot] (bot, permission not checked yet)");
    expect(dropWords("rate_limit")).toMatch(/limit of event-started runs per hour/);
    expect(dropWords(null)).toBe("Dropped.");
  });
});

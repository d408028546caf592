// A stored trigger request reads back canonically (so it hashes the same every sync) and never
// says more than the vocabulary allows.
import { describe, expect, it } from "vitest";
import { requestHash } from "../request.ts";
import { readRequestedTriggers } from "./stored.ts";

describe("readRequestedTriggers", () => {
  it("reads kinds, actions and labels back in a fixed order, each once", () => {
    const read = readRequestedTriggers({
      comment_command: { bots: true },
      issue: { bots: false, labels: ["triage", "bug", "triage"], actions: ["labeled", "opened"] },
      pull_request: { bots: false, actions: ["synchronize", "opened", "synchronize"] },
    });
    expect(JSON.stringify(read)).toBe(
      JSON.stringify({
        pull_request: { actions: ["opened", "synchronize"], bots: false },
        issue: { actions: ["opened", "labeled"], labels: ["bug", "triage"], bots: false },
        comment_command: { bots: true },
      }),
    );
  });

  it("drops what is not of the vocabulary's shape", () => {
    expect(readRequestedTriggers(null)).toEqual({});
    expect(readRequestedTriggers([])).toEqual({});
    expect(
      readRequestedTriggers({
        push: { actions: ["opened"] },
        pull_request: { actions: ["closed"], bots: "yes" },
        issue: { actions: ["labeled"], labels: [] },
        comment_command: true,
      }),
    ).toEqual({});
    expect(readRequestedTriggers({ pull_request: { actions: ["opened"], bots: "yes" } })).toEqual({
      pull_request: { actions: ["opened"], bots: false },
    });
  });

  it("[C04] no triggers hash as before triggers existed; any trigger changes the hash", () => {
    const groups = [{ kind: "GITHUB" as const, label: null, required: true, tools: ["get_file"] }];
    const before = requestHash(groups);
    expect(requestHash(groups, {}, {})).toBe(before);
    expect(requestHash(groups, {}, { pull_request: { actions: [], bots: false } })).toBe(before);
    const opened = requestHash(groups, {}, { pull_request: { actions: ["opened"], bots: false } });
    expect(opened).not.toBe(before);
    const wider = requestHash(groups, {}, { pull_request: { actions: ["opened"], bots: true } });
    expect(wider).not.toBe(opened);
  });
});

// `on:` of a job (issue #25 item 2): pull request, issue and comment-command triggers beside
// `schedule`; every bad value is reported on its own line with the rule (and allowed values).
import { describe, expect, it } from "vitest";
import { TRIGGER_CAPS } from "@secondshift/vocabulary";
import { parseRepoConfig } from "./parse.ts";
import type { RepoConfigLimits } from "./types.ts";

const limits: RepoConfigLimits = {
  maxTimeoutMinutes: 120,
  maxTokenBudget: 1_000_000,
  defaultTimeoutMinutes: 30,
};

// Lines 1-5; `on:` is line 6, its first kind line 7, that kind's first key line 8.
const head =
  "version: 1\njobs:\n  review:\n    name: Review\n    prompt: Review the pull request\n    on:\n";

const parse = (text: string) => parseRepoConfig(head + text, { limits });
const triggersOf = (text: string) => {
  const result = parse(text);
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 1));
  return result.config.jobs[0]?.triggers;
};

// [name, text after `on:`, expected line, message substring, expected path]
const badTriggers: Array<[string, string, number, string, string]> = [
  [
    "an unknown kind",
    "      push: { branches: [main] }\n",
    7,
    'unknown key "push"; allowed keys here: pullRequest, issues, commentCommand',
    "jobs.review.on.push",
  ],
  [
    "a pull request event that does not exist",
    "      pullRequest:\n        types:\n          - opened\n          - closed\n",
    10,
    '"closed" is not allowed; allowed values: opened, synchronize, reopened, ready_for_review',
    "jobs.review.on.pullRequest.types[1]",
  ],
  [
    "a pull request without types",
    "      pullRequest: { bots: true }\n",
    7,
    'missing required key "types"',
    "jobs.review.on.pullRequest",
  ],
  [
    "a pull request with an empty types list",
    "      pullRequest:\n        types: []\n",
    8,
    "must NOT have fewer than 1 items",
    "jobs.review.on.pullRequest.types",
  ],
  [
    "a pull request with a duplicate type",
    "      pullRequest:\n        types: [opened, opened]\n",
    8,
    "no duplicates",
    "jobs.review.on.pullRequest.types",
  ],
  [
    "a pull request with a branch filter",
    "      pullRequest:\n        types: [opened]\n        branches: [main]\n",
    9,
    'unknown key "branches"; allowed keys here: types, bots',
    "jobs.review.on.pullRequest.branches",
  ],
  [
    "bots that is not true or false",
    "      pullRequest:\n        types: [opened]\n        bots: dependabot\n",
    9,
    "must be boolean",
    "jobs.review.on.pullRequest.bots",
  ],
  [
    "an issue event that does not exist",
    "      issues:\n        types: [opened, closed]\n",
    8,
    '"closed" is not allowed; allowed values: opened, labeled',
    "jobs.review.on.issues.types[1]",
  ],
  [
    "an issue trigger on labeled without labels",
    "      issues:\n        types:\n          - opened\n          - labeled\n",
    10,
    '"labeled" needs the labels it waits for',
    "jobs.review.on.issues.types[1]",
  ],
  [
    "an issue label with a newline",
    '      issues:\n        types: [labeled]\n        labels: ["a\\nb"]\n',
    9,
    "A GitHub label name",
    "jobs.review.on.issues.labels[0]",
  ],
  [
    "too many issue labels",
    `      issues:\n        types: [labeled]\n        labels: [${Array.from({ length: TRIGGER_CAPS.maxIssueLabels + 1 }, (_, i) => `l${i}`).join(", ")}]\n`,
    9,
    `at most ${TRIGGER_CAPS.maxIssueLabels}`,
    "jobs.review.on.issues.labels",
  ],
  [
    "a comment command that is text",
    '      commentCommand: "/review"\n',
    7,
    "must be boolean,object",
    "jobs.review.on.commentCommand",
  ],
  [
    "a comment command with a key of its own",
    "      commentCommand:\n        prefix: /review\n",
    8,
    'unknown key "prefix"; allowed keys here: bots',
    "jobs.review.on.commentCommand.prefix",
  ],
];

describe("parseRepoConfig: triggers", () => {
  it.each(badTriggers)("refuses %s", (_name, text, line, message, path) => {
    const result = parse(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const match = result.errors.find((e) => e.path === path);
    expect(match, JSON.stringify(result.errors, null, 1)).toBeDefined();
    expect(match?.line).toBe(line);
    expect(match?.message).toContain(message);
  });

  it("tells what on is for in the schema's words", () => {
    const result = parse("      - pullRequest\n");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.message).toContain(
      "Allowed keys: pullRequest, issues, commentCommand",
    );
  });

  it("normalises into the vocabulary's kinds: actions in a fixed order, labels sorted", () => {
    expect(
      triggersOf(
        "      commentCommand: true\n      issues: { types: [labeled, opened], labels: [triage, bug] }\n      pullRequest:\n        types: [synchronize, opened]\n",
      ),
    ).toEqual({
      pull_request: { actions: ["opened", "synchronize"], bots: false },
      issue: { actions: ["opened", "labeled"], labels: ["bug", "triage"], bots: false },
      comment_command: { bots: false },
    });
  });

  it("writes kinds in a fixed key order, whatever the file's order", () => {
    const triggers = triggersOf(
      "      commentCommand: { bots: true }\n      pullRequest: { types: [ready_for_review], bots: true }\n",
    );
    expect(Object.keys(triggers ?? {})).toEqual(["pull_request", "comment_command"]);
    expect(triggers).toEqual({
      pull_request: { actions: ["ready_for_review"], bots: true },
      comment_command: { bots: true },
    });
  });

  it("keeps an absent kind absent: no on, on: {} and commentCommand: false request nothing", () => {
    expect(triggersOf("      commentCommand: false\n")).toEqual({});
    const empty = parseRepoConfig(head.replace("    on:\n", "    on: {}\n"), { limits });
    expect(empty.ok && empty.config.jobs[0]?.triggers).toEqual({});
    const withoutKey = parseRepoConfig(head.replace("    on:\n", ""), { limits });
    expect(withoutKey.ok && withoutKey.config.jobs[0]?.triggers).toEqual({});
  });

  it("takes on beside a schedule, with the schedule's own rules unchanged", () => {
    const both = parseRepoConfig(
      head.replace("    on:\n", '    schedule: "0 6 * * 1"\n    on:\n') +
        "      issues: { types: [opened] }\n",
      { limits },
    );
    expect(both.ok && both.config.jobs[0]).toMatchObject({
      schedule: "0 6 * * 1",
      triggers: { issue: { actions: ["opened"], labels: [], bots: false } },
    });
    const badCron = parseRepoConfig(
      head.replace("    on:\n", '    schedule: "every day"\n    on:\n') +
        "      commentCommand: true\n",
      { limits },
    );
    expect(badCron.ok).toBe(false);
    if (!badCron.ok)
      expect(badCron.errors[0]).toMatchObject({ line: 6, path: "jobs.review.schedule" });
  });
});

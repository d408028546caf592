// `outputs:` of a job (issue #24): comments, issues and a pull request; every bad value is
// reported on its own line with the rule that applies.
import { describe, expect, it } from "vitest";
import { OUTPUT_CAPS } from "@secondshift/vocabulary";
import { parseRepoConfig } from "./parse.ts";
import type { RepoConfigLimits } from "./types.ts";

const limits: RepoConfigLimits = {
  maxTimeoutMinutes: 120,
  maxTokenBudget: 1_000_000,
  defaultTimeoutMinutes: 30,
};

// Lines 1-5; `outputs:` is line 6, its first kind line 7, that kind's first key line 8.
const head =
  "version: 1\njobs:\n  nightly:\n    name: Nightly\n    prompt: Summarise yesterday's errors\n    outputs:\n";

const parse = (text: string) => parseRepoConfig(head + text, { limits });

// [name, text after `outputs:`, expected line, message substring, expected path]
const badOutputs: Array<[string, string, number, string, string]> = [
  [
    "an unknown kind",
    "      pushes: { max: 1 }\n",
    7,
    'unknown key "pushes"; allowed keys here: comments, issues, pullRequest, threatReview',
    "jobs.nightly.outputs.pushes",
  ],
  [
    "a pull request with too many files",
    `      pullRequest:\n        maxFiles: ${OUTPUT_CAPS.maxPullRequestFiles + 1}\n`,
    8,
    `from 1 to ${OUTPUT_CAPS.maxPullRequestFiles}`,
    "jobs.nightly.outputs.pullRequest.maxFiles",
  ],
  [
    "a pull request with zero changed lines",
    "      pullRequest:\n        draft: false\n        maxChangedLines: 0\n",
    9,
    `from 1 to ${OUTPUT_CAPS.maxPullRequestChangedLines}`,
    "jobs.nightly.outputs.pullRequest.maxChangedLines",
  ],
  [
    "a pull request with a branch of its own",
    "      pullRequest:\n        branch: main\n",
    8,
    'unknown key "branch"',
    "jobs.nightly.outputs.pullRequest.branch",
  ],
  [
    "a threat review that is not true or false",
    "      threatReview: yes please\n",
    7,
    "must be boolean",
    "jobs.nightly.outputs.threatReview",
  ],
  [
    "comments without max",
    "      comments: { target: any }\n",
    7,
    'missing required key "max"',
    "jobs.nightly.outputs.comments",
  ],
  [
    "comments max zero",
    "      comments:\n        max: 0\n",
    8,
    `from 1 to ${OUTPUT_CAPS.maxComments}`,
    "jobs.nightly.outputs.comments.max",
  ],
  [
    "comments max above the cap",
    `      comments:\n        max: ${OUTPUT_CAPS.maxComments + 1}\n`,
    8,
    "must be <=",
    "jobs.nightly.outputs.comments.max",
  ],
  [
    "comments target unknown",
    "      comments:\n        max: 1\n        target: everywhere\n",
    9,
    '"triggering" (default',
    "jobs.nightly.outputs.comments.target",
  ],
  [
    "issues max not a number",
    '      issues:\n        max: "2"\n',
    8,
    "must be integer",
    "jobs.nightly.outputs.issues.max",
  ],
  [
    "issues title prefix too long",
    `      issues:\n        max: 1\n        titlePrefix: "${"x".repeat(OUTPUT_CAPS.maxTitlePrefixLength + 1)}"\n`,
    9,
    `at most ${OUTPUT_CAPS.maxTitlePrefixLength} characters`,
    "jobs.nightly.outputs.issues.titlePrefix",
  ],
  [
    "issues title prefix with a control character",
    '      issues:\n        max: 1\n        titlePrefix: "a\\u0007"\n',
    9,
    "no control characters",
    "jobs.nightly.outputs.issues.titlePrefix",
  ],
  [
    "issues label too long",
    `      issues:\n        max: 1\n        labels:\n          - ok\n          - ${"l".repeat(51)}\n`,
    11,
    "A GitHub label name",
    "jobs.nightly.outputs.issues.labels[1]",
  ],
  [
    "issues label with a newline",
    '      issues:\n        max: 1\n        labels: ["a\\nb"]\n',
    9,
    "A GitHub label name",
    "jobs.nightly.outputs.issues.labels[0]",
  ],
  [
    "issues too many labels",
    `      issues:\n        max: 1\n        labels: [${Array.from({ length: OUTPUT_CAPS.maxLabels + 1 }, (_, i) => `l${i}`).join(", ")}]\n`,
    9,
    `at most ${OUTPUT_CAPS.maxLabels}`,
    "jobs.nightly.outputs.issues.labels",
  ],
  [
    "issues duplicate labels",
    "      issues:\n        max: 1\n        labels: [a, a]\n",
    9,
    "no duplicates",
    "jobs.nightly.outputs.issues.labels",
  ],
];

describe("parseRepoConfig: outputs", () => {
  it.each(badOutputs)("refuses %s", (_name, text, line, message, path) => {
    const result = parse(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const match = result.errors.find((e) => e.path === path);
    expect(match, JSON.stringify(result.errors, null, 1)).toBeDefined();
    expect(match?.line).toBe(line);
    expect(match?.message).toContain(message);
  });

  it("normalises comments and issues into the vocabulary's kinds with defaults", () => {
    const result = parse(
      '      comments: { max: 3 }\n      issues:\n        max: 1\n        titlePrefix: "[deps] "\n        labels: [security, dependencies, security fix]\n',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.config.jobs[0]?.outputs).toEqual({
      comment: { max: 3, target: "triggering" },
      issue: {
        max: 1,
        titlePrefix: "[deps] ",
        labels: ["dependencies", "security", "security fix"],
      },
    });
  });

  it("normalises a pull request with its defaults: draft, 50 files, 1000 changed lines", () => {
    const result = parse("      pullRequest: { labels: [deps, bot] }\n");
    expect(result.ok && result.config.jobs[0]?.outputs).toEqual({
      pull_request: { draft: true, labels: ["bot", "deps"], maxFiles: 50, maxChangedLines: 1000 },
    });
    const explicit = parse(
      "      pullRequest: { draft: false, maxFiles: 3, maxChangedLines: 40 }\n",
    );
    expect(explicit.ok && explicit.config.jobs[0]?.outputs).toEqual({
      pull_request: { draft: false, labels: [], maxFiles: 3, maxChangedLines: 40 },
    });
  });

  it("keeps an absent kind absent and an empty outputs map requests nothing", () => {
    const only = parse("      comments: { max: 2, target: any }\n");
    expect(only.ok && only.config.jobs[0]?.outputs).toEqual({ comment: { max: 2, target: "any" } });
    const empty = parseRepoConfig(head.replace("    outputs:\n", "    outputs: {}\n"), { limits });
    expect(empty.ok && empty.config.jobs[0]?.outputs).toEqual({});
    const withoutKey = parseRepoConfig(head.replace("    outputs:\n", ""), { limits });
    expect(withoutKey.ok && withoutKey.config.jobs[0]?.outputs).toEqual({});
  });

  it("carries threatReview only when true and some kind is requested, after the kinds", () => {
    const on = parse("      comments: { max: 1 }\n      threatReview: true\n");
    expect(on.ok && on.config.jobs[0]?.outputs).toEqual({
      comment: { max: 1, target: "triggering" },
      threatReview: true,
    });
    // Last key: a job without it stores (and hashes) exactly what it stored before.
    expect(on.ok && Object.keys(on.config.jobs[0]!.outputs)).toEqual(["comment", "threatReview"]);
    const off = parse("      comments: { max: 1 }\n      threatReview: false\n");
    expect(off.ok && off.config.jobs[0]?.outputs).toEqual({
      comment: { max: 1, target: "triggering" },
    });
    const alone = parse("      threatReview: true\n");
    expect(alone.ok && alone.config.jobs[0]?.outputs).toEqual({});
  });
});

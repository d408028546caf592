import { describe, expect, it } from "vitest";
import { parseRepoConfig } from "./parse.ts";
import type { RepoConfigLimits } from "./types.ts";

const limits: RepoConfigLimits = {
  maxTimeoutMinutes: 120,
  maxTokenBudget: 1_000_000,
  defaultTimeoutMinutes: 30,
};

/** A valid job body (indented for `jobs.<key>:`), extended by the cases below. */
const head =
  "version: 1\njobs:\n  nightly:\n    name: Nightly\n    prompt: Summarise yesterday's errors\n";

// [name, file text, expected line, message substring, expected path (optional)]
const badFiles: Array<[string, string, number, string, string?]> = [
  ["empty file", "", 1, "the file is empty"],
  ["only a comment", "# nothing\n", 1, "the file is empty"],
  [
    "syntax: unclosed flow sequence",
    "version: 1\njobs: {a: {name: x, prompt: [1, 2}\n",
    2,
    "YAML syntax error",
  ],
  [
    "syntax: bad indentation",
    "version: 1\njobs:\n  a:\n    name: x\n   prompt: y\n",
    5,
    "YAML syntax error",
  ],
  ["syntax: duplicate key", `${head}    name: Again\n`, 6, "Map keys must be unique"],
  ["not a mapping", "- version: 1\n", 1, "must be object"],
  [
    "missing version",
    "jobs:\n  a:\n    name: x\n    prompt: y\n",
    1,
    'missing required key "version"',
  ],
  ["wrong version", head.replace("version: 1", "version: 2"), 1, "must be 1", "version"],
  [
    "version as string",
    head.replace("version: 1", 'version: "1"'),
    1,
    "must be integer",
    "version",
  ],
  ["missing jobs", "version: 1\n", 1, 'missing required key "jobs"'],
  ["jobs is a list", "version: 1\njobs:\n  - name: x\n", 3, "must be object", "jobs"],
  [
    "unknown top-level key",
    `${head}extra: 1\n`,
    6,
    'unknown key "extra"; allowed keys here: version, jobs',
    "extra",
  ],
  [
    "bad job key",
    "version: 1\njobs:\n  Nightly Job:\n    name: x\n    prompt: y\n",
    3,
    "not a valid job key",
    'jobs["Nightly Job"]',
  ],
  [
    "unknown job key",
    `${head}    retries: 3\n`,
    6,
    'unknown key "retries"',
    "jobs.nightly.retries",
  ],
  [
    "name not a string",
    "version: 1\njobs:\n  a:\n    name: [x]\n    prompt: y\n",
    4,
    "must be string",
    "jobs.a.name",
  ],
  [
    "name missing",
    "version: 1\njobs:\n  a:\n    prompt: y\n",
    4,
    'missing required key "name"',
    "jobs.a",
  ],
  [
    "name too long",
    `version: 1\njobs:\n  a:\n    name: ${"n".repeat(101)}\n    prompt: y\n`,
    4,
    "must NOT have more than 100 characters",
  ],
  [
    "prompt and promptFile",
    `${head}    promptFile: prompts/a.md\n`,
    6,
    "either prompt or promptFile, not both",
    "jobs.nightly.promptFile",
  ],
  ["no prompt at all", "version: 1\njobs:\n  a:\n    name: x\n", 4, "missing the task", "jobs.a"],
  [
    "promptFile escapes the repository",
    "version: 1\njobs:\n  a:\n    name: x\n    promptFile: ../secrets.txt\n",
    5,
    "relative to the repository root",
    "jobs.a.promptFile",
  ],
  [
    "promptFile absolute",
    "version: 1\njobs:\n  a:\n    name: x\n    promptFile: /etc/passwd\n",
    5,
    "no leading /",
  ],
  [
    "prompt too long",
    `version: 1\njobs:\n  a:\n    name: x\n    prompt: ${"p".repeat(20_001)}\n`,
    5,
    "must NOT have more than 20000 characters",
  ],
  [
    "bad cron",
    `${head}    schedule: "61 * * * *"\n`,
    6,
    "not a valid cron expression",
    "jobs.nightly.schedule",
  ],
  [
    "cron with seconds",
    `${head}    schedule: "*/1 * * * * *"\n`,
    6,
    "not a five-field cron expression",
  ],
  ["cron alias", `${head}    schedule: "@hourly"\n`, 6, "not a five-field cron expression"],
  [
    "bad timezone",
    `${head}    timezone: Mars/Olympus\n`,
    6,
    "not an IANA time zone",
    "jobs.nightly.timezone",
  ],
  [
    "timeout above operator maximum",
    `${head}    timeoutMinutes: 500\n`,
    6,
    "at most 120 (this server's maximum",
    "jobs.nightly.timeoutMinutes",
  ],
  ["timeout not an integer", `${head}    timeoutMinutes: 1.5\n`, 6, "must be integer"],
  ["timeout as string (no coercion)", `${head}    timeoutMinutes: "30"\n`, 6, "must be integer"],
  [
    "budget above operator maximum",
    `${head}    tokenBudget: 2000000\n`,
    6,
    "at most 1000000",
    "jobs.nightly.tokenBudget",
  ],
  ["budget below minimum", `${head}    tokenBudget: 10\n`, 6, "must be >= 1000"],
  [
    "model that is a URL",
    `${head}    model: https://evil.example/v1\n`,
    6,
    "not allowed",
    "jobs.nightly.model",
  ],
  [
    "unknown tool kind",
    `${head}    tools:\n      slack: { required: true, tools: [post] }\n`,
    7,
    'unknown key "slack"; allowed keys here: github, sentry, mcp, http',
  ],
  [
    "group without required",
    `${head}    tools:\n      github: { tools: [list_commits] }\n`,
    7,
    'missing required key "required"',
  ],
  [
    "required not boolean",
    `${head}    tools:\n      github: { required: "yes", tools: [list_commits] }\n`,
    7,
    "must be boolean",
  ],
  [
    "empty tool list",
    `${head}    tools:\n      github: { required: true, tools: [] }\n`,
    7,
    "must NOT have fewer than 1 items",
  ],
  [
    "duplicate tool",
    `${head}    tools:\n      github:\n        required: true\n        tools: [a, a]\n`,
    9,
    "must NOT have duplicate items",
  ],
  [
    "tool name with unicode look-alike",
    `${head}    tools:\n      github:\n        required: true\n        tools: ["list_c\u043emmits"]\n`,
    9,
    "A tool name",
    "jobs.nightly.tools.github.tools[0]",
  ],
  [
    "mcp group is not a list",
    `${head}    tools:\n      mcp: { label: docs, required: true, tools: [a] }\n`,
    7,
    "must be array",
  ],
  [
    "mcp group without label",
    `${head}    tools:\n      mcp:\n        - required: true\n          tools: [a]\n`,
    8,
    'missing required key "label"',
  ],
  [
    "duplicate mcp label",
    `${head}    tools:\n      mcp:\n        - { label: docs, required: true, tools: [a] }\n        - { label: docs, required: false, tools: [b] }\n`,
    9,
    'label "docs" is listed twice',
  ],
  [
    "label that is a URL",
    `${head}    tools:\n      http:\n        - { label: "https://x", required: true, tools: [a] }\n`,
    8,
    "not allowed",
    "jobs.nightly.tools.http[0].label",
  ],
  [
    "too many tools",
    `${head}    tools:\n      github: { required: true, tools: [${Array.from({ length: 101 }, (_, i) => `t${i}`).join(", ")}] }\n`,
    7,
    "must NOT have more than 100 items",
  ],
  ["file too large", `${head}# ${"x".repeat(300 * 1024)}\n`, 1, "larger than 256 KiB"],
];

// [C01] every attempt to choose where calls go, which secret they carry, or how the sandbox
// runs — at any depth — is refused with the access-only message.
const forbidden: Array<[string, string, number, string]> = [
  [
    "endpoint on an mcp group",
    `${head}    tools:\n      mcp:\n        - label: docs\n          endpoint: https://evil.example/mcp\n          required: true\n          tools: [a]\n`,
    9,
    "jobs.nightly.tools.mcp[0].endpoint",
  ],
  [
    "url on an http group",
    `${head}    tools:\n      http:\n        - { label: api, url: "http://169.254.169.254", required: true, tools: [a] }\n`,
    8,
    "jobs.nightly.tools.http[0].url",
  ],
  [
    "token on the github group",
    `${head}    tools:\n      github: { required: true, token: ghp_planted, tools: [a] }\n`,
    7,
    "jobs.nightly.tools.github.token",
  ],
  ["credential on a job", `${head}    credential: abc\n`, 6, "jobs.nightly.credential"],
  ["secret at top level", `${head}secret: x\n`, 6, "secret"],
  ["apiKey variant", `${head}    apiKey: x\n`, 6, "jobs.nightly.apiKey"],
  ["webhookUrl compound", `${head}    webhookUrl: https://x\n`, 6, "jobs.nightly.webhookUrl"],
  ["image", `${head}    image: ubuntu:latest\n`, 6, "jobs.nightly.image"],
  ["network", `${head}    network: host\n`, 6, "jobs.nightly.network"],
  ["mounts", `${head}    mounts: ["/:/host"]\n`, 6, "jobs.nightly.mounts"],
  ["volumes", `${head}    volumes: ["/var/run/docker.sock:/s"]\n`, 6, "jobs.nightly.volumes"],
  ["env", `${head}    env: { AWS_SECRET_ACCESS_KEY: x }\n`, 6, "jobs.nightly.env"],
  ["environment", `${head}    environment: { A: b }\n`, 6, "jobs.nightly.environment"],
  ["runtime", `${head}    runtime: runc\n`, 6, "jobs.nightly.runtime"],
  ["privileged", `${head}    privileged: true\n`, 6, "jobs.nightly.privileged"],
  ["capabilities", `${head}    capabilities: [SYS_ADMIN]\n`, 6, "jobs.nightly.capabilities"],
  ["sandbox block", `${head}    sandbox: { memory: 64g }\n`, 6, "jobs.nightly.sandbox"],
  [
    "connection id (picking a connection)",
    `${head}    tools:\n      mcp:\n        - { label: docs, connectionId: c1, required: true, tools: [a] }\n`,
    8,
    "jobs.nightly.tools.mcp[0].connectionId",
  ],
  ["grant / approved (granting itself)", `${head}    approved: true\n`, 6, "jobs.nightly.approved"],
  [
    "sentry organization (scope)",
    `${head}    tools:\n      sentry: { required: true, organization: other-org, tools: [a] }\n`,
    7,
    "jobs.nightly.tools.sentry.organization",
  ],
  ["case and separator variants", `${head}    Base_URL: https://x\n`, 6, "jobs.nightly.Base_URL"],
];

describe("parseRepoConfig: bad files", () => {
  it.each(badFiles)("%s", (_name, text, line, message, path) => {
    const result = parseRepoConfig(text, { limits, file: "repo/.secondshift.yaml" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const match = result.errors.find((e) => e.message.includes(message));
    expect(match, JSON.stringify(result.errors, null, 1)).toBeDefined();
    expect(match?.line).toBe(line);
    expect(match?.file).toBe("repo/.secondshift.yaml");
    if (path !== undefined) expect(match?.path).toBe(path);
  });

  it.each(forbidden)("[C01] refuses %s", (_name, text, line, path) => {
    const result = parseRepoConfig(text, { limits });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const match = result.errors.find((e) => e.path === path);
    expect(match, JSON.stringify(result.errors, null, 1)).toBeDefined();
    expect(match?.line).toBe(line);
    expect(match?.message).toContain("repository configuration may only request access");
    // one message per forbidden key, not an extra "unknown key" for the same place
    expect(result.errors.filter((e) => e.path === path)).toHaveLength(1);
  });

  it("[C01] a job named like a forbidden word is still a job key, but its settings are checked", () => {
    const text = "version: 1\njobs:\n  token:\n    name: x\n    prompt: y\n    image: z\n";
    const result = parseRepoConfig(text, { limits });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.path)).toEqual(["jobs.token.image"]);
  });

  it("reports every problem in one pass, sorted by line", () => {
    const text = `version: 3\njobs:\n  a:\n    name: 1\n    prompt: y\n    image: x\n    schedule: nope\n`;
    const result = parseRepoConfig(text, { limits });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.line)).toEqual([1, 4, 6, 7]);
  });
});

describe("parseRepoConfig: good files", () => {
  it("round-trips a full file to the normalised structure", () => {
    const text = `# comment
version: 1
jobs:
  weekly-deps:
    name: Weekly dependency review
    promptFile: .secondshift/prompts/deps.md
    schedule: "0  9 * * 1"
    tools:
      github: { required: true, tools: [list_commits, get_file_contents] }
  nightly:
    name: Nightly triage
    description: Looks at new Sentry issues
    prompt: |
      Triage new issues.
    schedule: "30 6 * * 1-5"
    timezone: Europe/Berlin
    model: claude-sonnet-4-5
    tokenBudget: 500000
    timeoutMinutes: 45
    tools:
      http:
        - { label: status api, required: false, tools: [get_status] }
      mcp:
        - { label: wiki, required: false, tools: [search] }
        - { label: docs, required: true, tools: [search, fetch] }
      sentry: { required: true, tools: [list_issues] }
`;
    const result = parseRepoConfig(text, { limits });
    expect(result).toEqual({
      ok: true,
      config: {
        version: 1,
        jobs: [
          {
            key: "nightly",
            name: "Nightly triage",
            description: "Looks at new Sentry issues",
            prompt: "Triage new issues.\n",
            promptFile: null,
            schedule: "30 6 * * 1-5",
            timezone: "Europe/Berlin",
            model: "claude-sonnet-4-5",
            tokenBudget: 500_000,
            timeoutSeconds: 45 * 60,
            tools: [
              { kind: "SENTRY", label: null, required: true, tools: ["list_issues"] },
              { kind: "MCP", label: "docs", required: true, tools: ["fetch", "search"] },
              { kind: "MCP", label: "wiki", required: false, tools: ["search"] },
              { kind: "HTTP", label: "status api", required: false, tools: ["get_status"] },
            ],
            outputs: {},
            triggers: {},
          },
          {
            key: "weekly-deps",
            name: "Weekly dependency review",
            description: null,
            prompt: null,
            promptFile: ".secondshift/prompts/deps.md",
            schedule: "0 9 * * 1",
            timezone: "UTC",
            model: null,
            // No budget in the file: the workspace default applies at each run.
            tokenBudget: null,
            timeoutSeconds: 30 * 60,
            tools: [
              {
                kind: "GITHUB",
                label: null,
                required: true,
                tools: ["get_file_contents", "list_commits"],
              },
            ],
            outputs: {},
            triggers: {},
          },
        ],
      },
    });
  });

  it("accepts a job without tools or schedule and an empty jobs map", () => {
    const one = parseRepoConfig(head, { limits });
    expect(one.ok && one.config.jobs[0]?.tools).toEqual([]);
    const none = parseRepoConfig("version: 1\njobs: {}\n", { limits });
    expect(none).toEqual({ ok: true, config: { version: 1, jobs: [] } });
  });

  it("normalises equal requests written differently to the same structure", () => {
    const a = parseRepoConfig(
      `${head}    tools:\n      mcp:\n        - { label: b, required: true, tools: [y, x] }\n        - { label: a, required: false, tools: [z] }\n`,
      { limits },
    );
    const b = parseRepoConfig(
      `${head}    tools:\n      mcp:\n        - label: a\n          required: false\n          tools: [z]\n        - label: b\n          tools: [x, y]\n          required: true\n`,
      { limits },
    );
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) expect(a.config).toEqual(b.config);
  });
});

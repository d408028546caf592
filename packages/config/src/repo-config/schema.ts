// The JSON Schema of `.secondshift.yaml`, version 1. This TS object is the source of truth: the
// published file (schema/secondshift.schema.json, for editor completion) is written from it by
// `npm run schema:write -w @secondshift/config`, and a test keeps the two equal.
// Every property carries a `description` that says what is allowed: the parser appends it to
// validation errors, so a person fixing the file reads the rule next to the line.
// The schema describes requests only. Nothing in it can name an endpoint, credential,
// connection, grant or sandbox setting (see forbidden-keys.ts for the explicit refusal).

import {
  ISSUE_TRIGGER_ACTIONS,
  OUTPUT_CAPS,
  PULL_REQUEST_TRIGGER_ACTIONS,
  TRIGGER_CAPS,
} from "@secondshift/vocabulary";

export const REPO_CONFIG_VERSION = 1;
export const REPO_CONFIG_FILE = ".secondshift.yaml";
export const REPO_CONFIG_SCHEMA_ID = "https://secondshift.dev/schema/secondshift.schema.json";

/** Absolute caps; the operator's own maximums (timeout, budget) are applied by the parser. */
export const repoConfigCaps = {
  maxFileBytes: 256 * 1024,
  maxJobs: 50,
  maxPromptLength: 20_000,
  maxToolsPerGroup: 100,
  maxGroupsPerKind: 20,
  maxTokenBudget: 100_000_000,
  maxTimeoutMinutes: 24 * 60,
  /** Errors listed for one file; the rest are counted in a last "and N more" entry. */
  maxErrors: 50,
  /** Parser nesting depth; a valid file needs under 10, deeper input stops reading. */
  maxNestingDepth: 32,
  /** Aliases (`*name`): a file needs a few at most. */
  maxAliases: 100,
  /** Values (maps, lists, scalars) once aliases are expanded: aliases must not multiply the data. */
  maxExpandedValues: 200_000,
} as const;

export const TOOL_NAME_PATTERN = "^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$";
export const JOB_KEY_PATTERN = "^[a-z0-9][a-z0-9_-]{0,63}$";
export const LABEL_PATTERN = "^[A-Za-z0-9][A-Za-z0-9_. -]{0,63}$";
// A repository-relative path: no leading slash, no `..` segment, no backslash.
export const PROMPT_FILE_PATTERN = "^(?!/)(?!(.*/)?\\.\\.(/|$))[A-Za-z0-9_./-]{1,255}$";
// A GitHub label name: 1 to 50 characters, no control characters, no space at either end.
// \x escapes only, so the pattern reads the same in ECMAScript (ajv) and RE2.
export const ISSUE_LABEL_PATTERN =
  "^[^\\x00-\\x20\\x7f]([^\\x00-\\x1f\\x7f]{0,48}[^\\x00-\\x20\\x7f])?$";
const githubLabel = {
  type: "string",
  description:
    "A GitHub label name: 1 to 50 characters, no control characters, no space at either end.",
  pattern: ISSUE_LABEL_PATTERN,
} as const;
export const TITLE_PREFIX_PATTERN = "^[^\\x00-\\x1f\\x7f]*$";
export const MODEL_PATTERN = "^[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}$";

const toolList = {
  type: "array",
  description: `Tool names (letters, digits, _ . -; at most 128 characters), at most ${repoConfigCaps.maxToolsPerGroup}, no duplicates.`,
  minItems: 1,
  maxItems: repoConfigCaps.maxToolsPerGroup,
  uniqueItems: true,
  items: {
    type: "string",
    description: "A tool name: letters, digits, _ . - (at most 128 characters).",
    pattern: TOOL_NAME_PATTERN,
  },
} as const;

const required = {
  type: "boolean",
  description:
    "true: the job does not start unless every listed tool is granted; false: it runs with what is granted.",
} as const;

const builtinGroup = (service: string) =>
  ({
    type: "object",
    description: `Read tools of the workspace's ${service} connection. Allowed keys: required, tools.`,
    additionalProperties: false,
    required: ["required", "tools"],
    properties: { required, tools: toolList },
  }) as const;

const labelledGroups = (service: string) =>
  ({
    type: "array",
    description: `${service} tool requests, one entry per connection label the owner chose. Each entry: label, required, tools.`,
    maxItems: repoConfigCaps.maxGroupsPerKind,
    items: {
      type: "object",
      description: "Allowed keys: label, required, tools.",
      additionalProperties: false,
      required: ["label", "required", "tools"],
      properties: {
        label: {
          type: "string",
          description:
            "The label the workspace owner gave the connection (letters, digits, space _ . -; at most 64). It is a hint: the owner binds the request to a connection when approving.",
          pattern: LABEL_PATTERN,
        },
        required,
        tools: toolList,
      },
    },
  }) as const;

const outputs = {
  type: "object",
  description:
    "Results the job asks to leave the run; the workspace owner grants each kind in the access review. Allowed keys: comments, issues, pullRequest, threatReview.",
  additionalProperties: false,
  properties: {
    comments: {
      type: "object",
      description:
        "Comments on an issue or pull request of this repository. Allowed keys: max, target.",
      additionalProperties: false,
      required: ["max"],
      properties: {
        max: {
          type: "integer",
          description: `The most comments one run may leave, a whole number from 1 to ${OUTPUT_CAPS.maxComments}.`,
          minimum: 1,
          maximum: OUTPUT_CAPS.maxComments,
        },
        target: {
          type: "string",
          description:
            'Where a comment may go: "triggering" (default; the issue or pull request that started the run) or "any" (any issue or pull request of this repository).',
          enum: ["triggering", "any"],
        },
      },
    },
    issues: {
      type: "object",
      description: "New issues in this repository. Allowed keys: max, titlePrefix, labels.",
      additionalProperties: false,
      required: ["max"],
      properties: {
        max: {
          type: "integer",
          description: `The most issues one run may open, a whole number from 1 to ${OUTPUT_CAPS.maxIssues}.`,
          minimum: 1,
          maximum: OUTPUT_CAPS.maxIssues,
        },
        titlePrefix: {
          type: "string",
          description: `Text every issue title starts with, at most ${OUTPUT_CAPS.maxTitlePrefixLength} characters, no control characters.`,
          maxLength: OUTPUT_CAPS.maxTitlePrefixLength,
          pattern: TITLE_PREFIX_PATTERN,
        },
        labels: {
          type: "array",
          description: `Labels every new issue carries, at most ${OUTPUT_CAPS.maxLabels}, no duplicates.`,
          maxItems: OUTPUT_CAPS.maxLabels,
          uniqueItems: true,
          items: githubLabel,
        },
      },
    },
    pullRequest: {
      type: "object",
      description:
        "One pull request per run with the run's changes, on a new secondshift/ branch. Allowed keys: draft, labels, maxFiles, maxChangedLines.",
      additionalProperties: false,
      properties: {
        draft: {
          type: "boolean",
          description: "Whether the pull request is opened as a draft (default true).",
        },
        labels: {
          type: "array",
          description: `Labels the pull request carries, at most ${OUTPUT_CAPS.maxLabels}, no duplicates.`,
          maxItems: OUTPUT_CAPS.maxLabels,
          uniqueItems: true,
          items: githubLabel,
        },
        maxFiles: {
          type: "integer",
          description: `The most files the pull request may change, a whole number from 1 to ${OUTPUT_CAPS.maxPullRequestFiles} (default 50).`,
          minimum: 1,
          maximum: OUTPUT_CAPS.maxPullRequestFiles,
        },
        maxChangedLines: {
          type: "integer",
          description: `The most lines it may add and remove together, a whole number from 1 to ${OUTPUT_CAPS.maxPullRequestChangedLines} (default 1000).`,
          minimum: 1,
          maximum: OUTPUT_CAPS.maxPullRequestChangedLines,
        },
      },
    },
    threatReview: {
      type: "boolean",
      description:
        "true: at the end of each run a model call through the gateway, counted against the run's token budget, reviews every proposal for injected instructions, exfiltration and suspicious code, and a warning holds it for the owner. Default false.",
    },
  },
} as const;

const bots = {
  type: "boolean",
  description:
    "true: events caused by other bots (e.g. Dependabot) count too; SecondShift's own App never triggers a run. Default false.",
} as const;

// `on:` (issue #25): the events a job asks to run on. They are stored with the job, hashed into
// its request (adding or widening one needs approval again) and shown in the access review;
// only the default branch's approved triggers start runs (packages/events).
const triggers = {
  type: "object",
  description:
    "Events the job asks to run on, beside or instead of its schedule (GitHub repositories only; the workspace owner approves them in the access review; only approved triggers start runs). Allowed keys: pullRequest, issues, commentCommand.",
  additionalProperties: false,
  properties: {
    pullRequest: {
      type: "object",
      description: "Pull requests of this repository. Allowed keys: types, bots.",
      additionalProperties: false,
      required: ["types"],
      properties: {
        types: {
          type: "array",
          description: `Which pull request events start the job, at least one, no duplicates: ${PULL_REQUEST_TRIGGER_ACTIONS.join(", ")} (synchronize: new commits were pushed).`,
          minItems: 1,
          uniqueItems: true,
          items: {
            type: "string",
            description: `A pull request event: ${PULL_REQUEST_TRIGGER_ACTIONS.join(", ")}.`,
            enum: PULL_REQUEST_TRIGGER_ACTIONS,
          },
        },
        bots,
      },
    },
    issues: {
      type: "object",
      description: "Issues of this repository. Allowed keys: types, labels, bots.",
      additionalProperties: false,
      required: ["types"],
      properties: {
        types: {
          type: "array",
          description: `Which issue events start the job, at least one, no duplicates: ${ISSUE_TRIGGER_ACTIONS.join(", ")} (labeled: one of labels was added; it needs labels).`,
          minItems: 1,
          uniqueItems: true,
          items: {
            type: "string",
            description: `An issue event: ${ISSUE_TRIGGER_ACTIONS.join(", ")}.`,
            enum: ISSUE_TRIGGER_ACTIONS,
          },
        },
        labels: {
          type: "array",
          description: `Label names, at most ${TRIGGER_CAPS.maxIssueLabels}, no duplicates: "labeled" matches when one of them is added; "opened" then matches only an issue opened with one of them.`,
          minItems: 1,
          maxItems: TRIGGER_CAPS.maxIssueLabels,
          uniqueItems: true,
          items: githubLabel,
        },
        bots,
      },
    },
    commentCommand: {
      type: ["boolean", "object"],
      description:
        'true: a comment "/secondshift <job-key>" on an issue or pull request of this repository starts the job; or a map with the key bots. Default false.',
      additionalProperties: false,
      properties: { bots },
    },
  },
} as const;

const job = {
  type: "object",
  description:
    "A job. Allowed keys: name, description, prompt or promptFile, schedule, on, timezone, model, tokenBudget, timeoutMinutes, tools, outputs.",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: {
      type: "string",
      description: "A display name, 1 to 100 characters.",
      minLength: 1,
      maxLength: 100,
    },
    description: {
      type: "string",
      description: "Free text, at most 2000 characters.",
      maxLength: 2000,
    },
    prompt: {
      type: "string",
      description: `The task, inline (1 to ${repoConfigCaps.maxPromptLength} characters). Use either prompt or promptFile.`,
      minLength: 1,
      maxLength: repoConfigCaps.maxPromptLength,
    },
    promptFile: {
      type: "string",
      description:
        "A file in this repository holding the task, relative to the repository root (no leading /, no ..).",
      pattern: PROMPT_FILE_PATTERN,
    },
    schedule: {
      type: "string",
      description:
        'A five-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 6 * * 1-5". Omit for run-on-demand only (or events only, with on).',
      minLength: 1,
      maxLength: 100,
    },
    on: triggers,
    timezone: {
      type: "string",
      description: 'An IANA time zone for the schedule, e.g. "Europe/Berlin". Default: UTC.',
      minLength: 1,
      maxLength: 64,
    },
    model: {
      type: "string",
      description:
        "A model name of the workspace's provider (letters, digits, . _ : @ -). Default: the provider's default model.",
      pattern: MODEL_PATTERN,
    },
    tokenBudget: {
      type: "integer",
      description:
        "The most model tokens one run may use; a whole number from 1000 up to the server's maximum.",
      minimum: 1000,
      maximum: repoConfigCaps.maxTokenBudget,
    },
    timeoutMinutes: {
      type: "integer",
      description:
        "The longest a run may take, in whole minutes, from 1 up to the server's maximum.",
      minimum: 1,
      maximum: repoConfigCaps.maxTimeoutMinutes,
    },
    tools: {
      type: "object",
      description:
        "Tools the job requests, grouped by connection kind. Allowed keys: github, sentry, mcp, http.",
      additionalProperties: false,
      properties: {
        github: builtinGroup("GitHub"),
        sentry: builtinGroup("Sentry"),
        mcp: labelledGroups("MCP server"),
        http: labelledGroups("HTTP API"),
      },
    },
    outputs,
  },
} as const;

export const repoConfigSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  $id: REPO_CONFIG_SCHEMA_ID,
  title: "SecondShift repository configuration (.secondshift.yaml)",
  description:
    "Jobs this repository asks SecondShift to run. Repository configuration may only request access; the workspace owner grants it. Allowed keys: version, jobs.",
  type: "object",
  additionalProperties: false,
  required: ["version", "jobs"],
  properties: {
    version: {
      type: "integer",
      description: "The format version; must be 1.",
      const: REPO_CONFIG_VERSION,
    },
    jobs: {
      type: "object",
      description: `Jobs by key (lowercase letters, digits, _ -; at most 64 characters), at most ${repoConfigCaps.maxJobs}.`,
      maxProperties: repoConfigCaps.maxJobs,
      propertyNames: {
        type: "string",
        description:
          "A job key: lowercase letters, digits, _ and -, starting with a letter or digit, at most 64 characters.",
        pattern: JOB_KEY_PATTERN,
      },
      additionalProperties: job,
    },
  },
} as const;

// Turns a validated document into the stable structure the platform stores: defaults filled,
// groups in a fixed order, tool names sorted — so equal requests compare (and hash) equal.
import {
  ISSUE_TRIGGER_ACTIONS,
  PULL_REQUEST_TRIGGER_ACTIONS,
  type CommentTarget,
  type RequestedOutputs,
  type RequestedTriggers,
} from "@secondshift/vocabulary";
import type {
  RepoConfig,
  RepoConfigLimits,
  RepoJob,
  RequestedKind,
  RequestedToolGroup,
} from "./types.ts";

type Json = Record<string, unknown>;

interface RawGroup {
  label?: string;
  required: boolean;
  tools: string[];
}

const kindOrder: RequestedKind[] = ["GITHUB", "SENTRY", "MCP", "HTTP"];

export function compareGroups(a: RequestedToolGroup, b: RequestedToolGroup): number {
  const byKind = kindOrder.indexOf(a.kind) - kindOrder.indexOf(b.kind);
  if (byKind !== 0) return byKind;
  const la = a.label ?? "";
  const lb = b.label ?? "";
  return la < lb ? -1 : la > lb ? 1 : 0;
}

function group(kind: RequestedKind, raw: RawGroup): RequestedToolGroup {
  return {
    kind,
    label: raw.label ?? null,
    required: raw.required,
    tools: [...new Set(raw.tools)].sort(),
  };
}

function normaliseTools(tools: Json | undefined): RequestedToolGroup[] {
  if (!tools) return [];
  const out: RequestedToolGroup[] = [];
  if (tools.github) out.push(group("GITHUB", tools.github as RawGroup));
  if (tools.sentry) out.push(group("SENTRY", tools.sentry as RawGroup));
  for (const raw of (tools.mcp as RawGroup[] | undefined) ?? []) out.push(group("MCP", raw));
  for (const raw of (tools.http as RawGroup[] | undefined) ?? []) out.push(group("HTTP", raw));
  return out.sort(compareGroups);
}

const DEFAULT_PR_MAX_FILES = 50;
const DEFAULT_PR_MAX_CHANGED_LINES = 1000;

// The file says `comments` / `issues` / `pullRequest` (what a person writes); the platform's
// kinds are `comment` / `issue` / `pull_request`. Key order is fixed so the stored value hashes the same every sync.
function normaliseOutputs(raw: Json | undefined): RequestedOutputs {
  const out: RequestedOutputs = {};
  const comments = raw?.comments as Json | undefined;
  if (comments) {
    const target = (comments.target as CommentTarget | undefined) ?? "triggering";
    out.comment = { max: comments.max as number, target };
  }
  const issues = raw?.issues as Json | undefined;
  if (issues) {
    out.issue = {
      max: issues.max as number,
      titlePrefix: typeof issues.titlePrefix === "string" ? issues.titlePrefix : "",
      labels: [...new Set((issues.labels as string[] | undefined) ?? [])].sort(),
    };
  }
  const pullRequest = raw?.pullRequest as Json | undefined;
  if (pullRequest) {
    out.pull_request = {
      draft: pullRequest.draft !== false,
      labels: [...new Set((pullRequest.labels as string[] | undefined) ?? [])].sort(),
      maxFiles: (pullRequest.maxFiles as number | undefined) ?? DEFAULT_PR_MAX_FILES,
      maxChangedLines:
        (pullRequest.maxChangedLines as number | undefined) ?? DEFAULT_PR_MAX_CHANGED_LINES,
    };
  }
  // Only when true and something is requested (a review of nothing is no request), and last,
  // so a job without it stores and hashes exactly as before.
  if (raw?.threatReview === true && Object.keys(out).length > 0) out.threatReview = true;
  return out;
}

/** The listed actions in the vocabulary's order, each once. */
function actions<T extends string>(order: readonly T[], listed: unknown): T[] {
  const given = Array.isArray(listed) ? listed : [];
  return order.filter((action) => given.includes(action));
}

// The file says `pullRequest` / `issues` / `commentCommand`; the platform's kinds are
// `pull_request` / `issue` / `comment_command`. Fixed key order, actions in the vocabulary's
// order, labels sorted: equal requests store and hash the same. Requests only (issue #25 item
// 2): nothing starts a run on an event yet.
function normaliseTriggers(raw: Json | undefined): RequestedTriggers {
  const out: RequestedTriggers = {};
  const pullRequest = raw?.pullRequest as Json | undefined;
  if (pullRequest) {
    out.pull_request = {
      actions: actions(PULL_REQUEST_TRIGGER_ACTIONS, pullRequest.types),
      bots: pullRequest.bots === true,
    };
  }
  const issues = raw?.issues as Json | undefined;
  if (issues) {
    out.issue = {
      actions: actions(ISSUE_TRIGGER_ACTIONS, issues.types),
      labels: [...new Set((issues.labels as string[] | undefined) ?? [])].sort(),
      bots: issues.bots === true,
    };
  }
  const command = raw?.commentCommand;
  if (command === true) out.comment_command = { bots: false };
  else if (typeof command === "object" && command !== null)
    out.comment_command = { bots: (command as Json).bots === true };
  return out;
}

export function normaliseJob(key: string, raw: Json, limits: RepoConfigLimits): RepoJob {
  const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
  return {
    key,
    name: raw.name as string,
    description: str(raw.description),
    prompt: str(raw.prompt),
    promptFile: str(raw.promptFile),
    schedule: str(raw.schedule)?.trim().replace(/\s+/g, " ") ?? null,
    timezone: str(raw.timezone) ?? "UTC",
    model: str(raw.model),
    // Absent: the job has no budget of its own; each run gets its workspace's default.
    tokenBudget: typeof raw.tokenBudget === "number" ? raw.tokenBudget : null,
    timeoutSeconds:
      (typeof raw.timeoutMinutes === "number" ? raw.timeoutMinutes : limits.defaultTimeoutMinutes) *
      60,
    tools: normaliseTools(raw.tools as Json | undefined),
    outputs: normaliseOutputs(raw.outputs as Json | undefined),
    triggers: normaliseTriggers(raw.on as Json | undefined),
  };
}

export function normaliseConfig(raw: Json, limits: RepoConfigLimits): RepoConfig {
  const jobs = raw.jobs as Record<string, Json>;
  return {
    version: 1,
    jobs: Object.keys(jobs)
      .sort()
      .map((key) => normaliseJob(key, jobs[key] as Json, limits)),
  };
}

// Turns a validated document into the stable structure the platform stores: defaults filled,
// groups in a fixed order, tool names sorted — so equal requests compare (and hash) equal.
import type { CommentTarget, RequestedOutputs } from "@secondshift/vocabulary";
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

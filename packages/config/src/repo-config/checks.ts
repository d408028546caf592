// Rules JSON Schema cannot express: a parseable cron, a real IANA zone, the operator's own
// maximums, one prompt source, unique labels, labels for an issue trigger on "labeled". They run on values the schema already typed.
import { CronExpressionParser } from "cron-parser";
import { shorten, type PathSegments } from "./positions.ts";
import type { RepoConfigLimits } from "./types.ts";

export interface CheckProblem {
  path: PathSegments;
  message: string;
  atKey?: boolean;
}

// Building an Intl.DateTimeFormat costs ~0.1 ms; a file names the same few zones many times.
const knownZones = new Map<string, boolean>();

export function isValidTimezone(zone: string): boolean {
  const known = knownZones.get(zone);
  if (known !== undefined) return known;
  let valid = true;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
  } catch {
    valid = false;
  }
  if (knownZones.size >= 1000) knownZones.clear(); // bounded: zone names come from files
  knownZones.set(zone, valid);
  return valid;
}

/** Five fields only: a seconds field would let a repository schedule a run every second. */
export function cronProblem(expression: string, timezone: string): string | null {
  const fields = expression.trim().split(/\s+/);
  if (fields.length !== 5 || expression.trim().startsWith("@")) {
    return `"${shorten(expression)}" is not a five-field cron expression; write minute hour day-of-month month day-of-week, e.g. "0 6 * * 1-5"`;
  }
  try {
    CronExpressionParser.parse(expression, { tz: isValidTimezone(timezone) ? timezone : "UTC" });
    return null;
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return `"${shorten(expression)}" is not a valid cron expression (${shorten(detail, 200)}); write minute hour day-of-month month day-of-week, e.g. "0 6 * * 1-5"`;
  }
}

type Json = Record<string, unknown>;

export function checkJob(key: string, job: Json, limits: RepoConfigLimits): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const at = (...rest: PathSegments): PathSegments => ["jobs", key, ...rest];
  const hasPrompt = typeof job.prompt === "string";
  const hasFile = typeof job.promptFile === "string";
  if (hasPrompt && hasFile) {
    problems.push({
      path: at("promptFile"),
      atKey: true,
      message: "set either prompt or promptFile, not both",
    });
  } else if (!hasPrompt && !hasFile && job.prompt === undefined && job.promptFile === undefined) {
    problems.push({
      path: at(),
      message:
        "missing the task: set prompt (inline text) or promptFile (a file in this repository)",
    });
  }
  const timezone = typeof job.timezone === "string" ? job.timezone : "UTC";
  if (typeof job.timezone === "string" && !isValidTimezone(job.timezone)) {
    problems.push({
      path: at("timezone"),
      message: `"${shorten(job.timezone)}" is not an IANA time zone; use a name such as "UTC" or "Europe/Berlin"`,
    });
  }
  if (typeof job.schedule === "string") {
    const problem = cronProblem(job.schedule, timezone);
    if (problem) problems.push({ path: at("schedule"), message: problem });
  }
  if (typeof job.timeoutMinutes === "number" && job.timeoutMinutes > limits.maxTimeoutMinutes) {
    problems.push({
      path: at("timeoutMinutes"),
      message: `must be at most ${limits.maxTimeoutMinutes} (this server's maximum run time in minutes)`,
    });
  }
  if (typeof job.tokenBudget === "number" && job.tokenBudget > limits.maxTokenBudget) {
    problems.push({
      path: at("tokenBudget"),
      message: `must be at most ${limits.maxTokenBudget} (this server's maximum token budget per run)`,
    });
  }
  const issues = (job.on as Json | null | undefined)?.issues as Json | null | undefined;
  const types = issues?.types;
  if (Array.isArray(types) && types.includes("labeled") && issues?.labels === undefined) {
    problems.push({
      path: at("on", "issues", "types", types.indexOf("labeled")),
      message:
        '"labeled" needs the labels it waits for: add labels, e.g. labels: [triage], under issues',
    });
  }
  const tools = job.tools as Json | undefined;
  for (const kind of ["mcp", "http"] as const) {
    const groups = tools?.[kind];
    if (!Array.isArray(groups)) continue;
    const seen = new Set<string>();
    groups.forEach((group: unknown, index) => {
      const label = (group as Json | null)?.label;
      if (typeof label !== "string") return;
      if (seen.has(label)) {
        problems.push({
          path: at("tools", kind, index, "label"),
          message: `label "${shorten(label)}" is listed twice under ${kind}; merge the two entries`,
        });
      }
      seen.add(label);
    });
  }
  return problems;
}

// The GitHub tools SecondShift offers: read-only, from this list only ([C22]). Each tool is
// one GET under /repos/{owner}/{repo} (or /search/code restricted to that repository); the
// repository is always the job's own — see scope.ts.
import type { JsonSchema, ToolDescriptor } from "../types.ts";
import { checkSegment } from "../shared/url.ts";

const repoProps = {
  owner: {
    type: "string",
    maxLength: 100,
    description: "Repository owner. Optional: defaults to the job's repository.",
  },
  repo: {
    type: "string",
    maxLength: 100,
    description: "Repository name. Optional: defaults to the job's repository.",
  },
};
const paging = {
  per_page: { type: "integer", minimum: 1, maximum: 100 },
  page: { type: "integer", minimum: 1, maximum: 1000 },
};

function schema(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return {
    type: "object",
    properties: { ...repoProps, ...properties },
    required,
    additionalProperties: false,
  };
}

export interface GithubRequestPlan {
  /** Path segments after /repos/{owner}/{repo}, or a full segment list when `search`. */
  segments: string[];
  query: Record<string, string | number | undefined>;
  accept?: string;
  search?: boolean;
}

export interface GithubTool {
  descriptor: ToolDescriptor;
  plan(args: Record<string, unknown>, repo: { owner: string; name: string }): GithubRequestPlan;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isInteger(v) ? v : undefined;
const id = (v: unknown, what: string): string => {
  const n = num(v);
  if (n === undefined || n < 1) throw new TypeError(`${what} must be a positive integer`);
  return String(n);
};
const page = (a: Record<string, unknown>) => ({ per_page: num(a.per_page), page: num(a.page) });

/** A repository file path: segments checked one by one (no "..", no encoded separators). */
function filePath(value: unknown): string[] {
  const path = str(value) ?? "";
  const trimmed = path.replace(/^\/+/, "");
  if (trimmed === "") return [];
  return trimmed.split("/").map((s) => checkSegment(s, "file path"));
}

// Search qualifiers that would widen a search beyond the job's repository.
const SCOPE_QUALIFIERS = /(^|\s|\()-?(repo|org|user|owner|fork|is):/i;

function tool(
  name: string,
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[],
  plan: GithubTool["plan"],
): GithubTool {
  return {
    descriptor: {
      name,
      description,
      inputSchema: schema(properties, required),
      mayChangeData: false,
    },
    plan,
  };
}

export const githubTools: readonly GithubTool[] = [
  tool(
    "get_file_contents",
    "Read a file (or list a directory) in the job's repository.",
    { path: { type: "string", maxLength: 1024 }, ref: { type: "string", maxLength: 255 } },
    ["path"],
    (a) => ({
      segments: ["contents", ...filePath(a.path)],
      query: { ref: str(a.ref) },
      accept: "application/vnd.github.raw+json",
    }),
  ),
  tool(
    "list_issues",
    "List issues of the job's repository.",
    {
      state: { enum: ["open", "closed", "all"] },
      labels: { type: "string", maxLength: 200 },
      ...paging,
    },
    [],
    (a) => ({
      segments: ["issues"],
      query: { state: str(a.state), labels: str(a.labels), ...page(a) },
    }),
  ),
  tool(
    "get_issue",
    "Get one issue of the job's repository.",
    { issue_number: { type: "integer", minimum: 1 } },
    ["issue_number"],
    (a) => ({
      segments: ["issues", id(a.issue_number, "issue_number")],
      query: {},
    }),
  ),
  tool(
    "list_pull_requests",
    "List pull requests of the job's repository.",
    {
      state: { enum: ["open", "closed", "all"] },
      base: { type: "string", maxLength: 255 },
      ...paging,
    },
    [],
    (a) => ({
      segments: ["pulls"],
      query: { state: str(a.state), base: str(a.base), ...page(a) },
    }),
  ),
  tool(
    "get_pull_request",
    "Get one pull request of the job's repository.",
    { pull_number: { type: "integer", minimum: 1 } },
    ["pull_number"],
    (a) => ({
      segments: ["pulls", id(a.pull_number, "pull_number")],
      query: {},
    }),
  ),
  tool(
    "get_pull_request_diff",
    "Get the unified diff of a pull request.",
    { pull_number: { type: "integer", minimum: 1 } },
    ["pull_number"],
    (a) => ({
      segments: ["pulls", id(a.pull_number, "pull_number")],
      query: {},
      accept: "application/vnd.github.diff",
    }),
  ),
  tool(
    "list_commits",
    "List commits of the job's repository.",
    {
      sha: { type: "string", maxLength: 255 },
      path: { type: "string", maxLength: 1024 },
      ...paging,
    },
    [],
    (a) => ({
      segments: ["commits"],
      query: { sha: str(a.sha), path: str(a.path), ...page(a) },
    }),
  ),
  tool(
    "search_code",
    "Search code in the job's repository only.",
    { query: { type: "string", minLength: 1, maxLength: 256 }, ...paging },
    ["query"],
    (a, repo) => {
      const q = str(a.query) ?? "";
      if (SCOPE_QUALIFIERS.test(q)) throw new RangeError("scope qualifier");
      return {
        segments: ["search", "code"],
        query: { q: `${q} repo:${repo.owner}/${repo.name}`, ...page(a) },
        search: true,
      };
    },
  ),
  tool(
    "list_workflow_runs",
    "List GitHub Actions workflow runs of the job's repository.",
    {
      branch: { type: "string", maxLength: 255 },
      status: { type: "string", maxLength: 32 },
      ...paging,
    },
    [],
    (a) => ({
      segments: ["actions", "runs"],
      query: { branch: str(a.branch), status: str(a.status), ...page(a) },
    }),
  ),
  tool(
    "get_workflow_run_logs",
    "Summarise a workflow run: its jobs, failed steps and the end of each failed job's log.",
    { run_id: { type: "integer", minimum: 1 } },
    ["run_id"],
    (a) => ({
      segments: ["actions", "runs", id(a.run_id, "run_id"), "jobs"],
      query: { per_page: 100 },
    }),
  ),
];

export const githubToolsByName: ReadonlyMap<string, GithubTool> = new Map(
  githubTools.map((t) => [t.descriptor.name, t]),
);

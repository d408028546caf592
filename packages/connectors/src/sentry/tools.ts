// The Sentry tools SecondShift offers: read-only, from this list only ([C22]), all under
// /api/0/organizations/{the owner's organization}/ so the service enforces the scope as well.
import type { JsonSchema, ToolDescriptor } from "../types.ts";

const orgProp = {
  organization: {
    type: "string",
    maxLength: 100,
    description: "Organization slug. Optional: defaults to the connection's organization.",
  },
};
const issueId = {
  issue_id: {
    type: "string",
    pattern: "^[A-Za-z0-9_-]{1,64}$",
    description: "Issue id (numeric) or short id (PROJECT-123).",
  },
};
const cursor = {
  cursor: {
    type: "string",
    pattern: "^[0-9:.-]{1,64}$",
    description: "Pagination cursor from a previous result.",
  },
};

function schema(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  return {
    type: "object",
    properties: { ...orgProp, ...properties },
    required,
    additionalProperties: false,
  };
}

export interface SentryPlan {
  /** Segments after /api/0/organizations/{org}/ ; a trailing "" gives Sentry's trailing slash. */
  segments: string[];
  query: Record<string, string | number | undefined>;
}

export interface SentryTool {
  descriptor: ToolDescriptor;
  plan(args: Record<string, unknown>): SentryPlan;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function tool(
  name: string,
  description: string,
  properties: Record<string, JsonSchema>,
  required: string[],
  plan: SentryTool["plan"],
): SentryTool {
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

export const sentryTools: readonly SentryTool[] = [
  tool("list_projects", "List the organization's projects.", { ...cursor }, [], (a) => ({
    segments: ["projects", ""],
    query: { cursor: str(a.cursor) },
  })),
  tool(
    "list_issues",
    "List the organization's issues, optionally for one project and a Sentry search query.",
    {
      project: { type: "integer", minimum: 1, description: "Project id." },
      query: { type: "string", maxLength: 500 },
      statsPeriod: { enum: ["", "24h", "14d"] },
      ...cursor,
    },
    [],
    (a) => ({
      segments: ["issues", ""],
      query: {
        project: typeof a.project === "number" ? a.project : undefined,
        query: str(a.query),
        statsPeriod: str(a.statsPeriod),
        cursor: str(a.cursor),
      },
    }),
  ),
  tool("get_issue", "Get one issue.", { ...issueId }, ["issue_id"], (a) => ({
    segments: ["issues", str(a.issue_id) ?? "", ""],
    query: {},
  })),
  tool(
    "get_issue_events",
    "List an issue's events.",
    { ...issueId, ...cursor },
    ["issue_id"],
    (a) => ({
      segments: ["issues", str(a.issue_id) ?? "", "events", ""],
      query: { cursor: str(a.cursor) },
    }),
  ),
  tool(
    "get_latest_event",
    "Get an issue's latest event (stack trace, tags, context).",
    { ...issueId },
    ["issue_id"],
    (a) => ({ segments: ["issues", str(a.issue_id) ?? "", "events", "latest", ""], query: {} }),
  ),
];

export const sentryToolsByName: ReadonlyMap<string, SentryTool> = new Map(
  sentryTools.map((t) => [t.descriptor.name, t]),
);

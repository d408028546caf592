// Platform tools (issue #24): built-in tools that go through the broker like any plan tool
// (plan check, argument schema, audit row `tool.call`) but need no connection and have no
// outside effect. A run sees one only when its frozen plan grants it (`grantedBy`); a call to
// one that is not granted is refused as NOT_IN_PLAN. The one list is PLATFORM_TOOL_LIST below;
// the event text tool (issue #25, E02) only reads the run's own event.
import type { Db } from "@secondshift/db";
import type { FrozenPlan } from "../plan.ts";
import { eventTextTool } from "./event-text.ts";
import { proposeCommentTool, proposeIssueTool } from "./propose.ts";
import { proposePullRequestTool } from "./propose-pull-request.ts";

export interface PlatformRun {
  id: string;
  workspaceId: string;
  jobId: string;
}

export interface PlatformToolContext {
  db: Db;
  run: PlatformRun;
  plan: FrozenPlan;
}

/** What the model reads back: plain text; `isError` when nothing was done (a limit, say). */
export interface PlatformToolOutput {
  text: string;
  isError: boolean;
}

export interface PlatformTool {
  /** The exact name the model calls (vocabulary PLATFORM_TOOLS). */
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  grantedBy(plan: FrozenPlan): boolean;
  /** Called with arguments already checked against `inputSchema`. */
  call(ctx: PlatformToolContext, args: Record<string, unknown>): Promise<PlatformToolOutput>;
}

export const PLATFORM_TOOL_LIST: readonly PlatformTool[] = [
  proposeCommentTool,
  proposeIssueTool,
  proposePullRequestTool,
  eventTextTool,
];

const byName = new Map(PLATFORM_TOOL_LIST.map((t) => [t.name, t]));

/** The platform tool of exactly this name, granted or not. */
export function platformToolNamed(name: unknown): PlatformTool | undefined {
  return typeof name === "string" ? byName.get(name) : undefined;
}

export const isPlatformToolName = (name: string): boolean => byName.has(name);

/** The platform tools the run's plan grants, for the model's tool list. */
export function grantedPlatformTools(plan: FrozenPlan): PlatformTool[] {
  return PLATFORM_TOOL_LIST.filter((t) => t.grantedBy(plan));
}

// Runs as every member may read them: status, timings, usage and the result — never the run's
// token, plan internals or diff (fetched on their own when the UI needs them).
import type { RunStatus, RunTrigger } from "@secondshift/db";
import { notFound, requireRole, type ActorContext } from "../context.ts";
import { pageQuery, toPage, type Page, type PageInput } from "../paging.ts";

export interface RunSummary {
  id: string;
  jobId: string;
  trigger: RunTrigger;
  status: RunStatus;
  commitSha: string | null;
  queuedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  tokensUsed: number;
  budgetTokens: number;
  error: string | null;
}

const summary = {
  id: true,
  jobId: true,
  trigger: true,
  status: true,
  commitSha: true,
  queuedAt: true,
  startedAt: true,
  finishedAt: true,
  tokensUsed: true,
  budgetTokens: true,
  error: true,
} as const;

export async function listRuns(
  ctx: ActorContext,
  input: PageInput & { jobId?: string; status?: RunStatus[]; trigger?: RunTrigger },
): Promise<Page<RunSummary>> {
  await requireRole(ctx, "read");
  const page = pageQuery(input);
  const rows = await ctx.db.run.findMany({
    ...page,
    where: {
      ...page.where,
      workspaceId: ctx.workspaceId,
      ...(input.jobId === undefined ? {} : { jobId: input.jobId }),
      ...(input.status === undefined ? {} : { status: { in: input.status } }),
      ...(input.trigger === undefined ? {} : { trigger: input.trigger }),
    },
    select: summary,
  });
  return toPage(rows, input);
}

export interface RunDetail extends RunSummary {
  summary: string | null;
  inputTokens: number;
  outputTokens: number;
  cancelRequestedAt: Date | null;
}

export async function getRun(ctx: ActorContext, input: { runId: string }): Promise<RunDetail> {
  await requireRole(ctx, "read");
  const run = await ctx.db.run.findFirst({
    where: { id: input.runId, workspaceId: ctx.workspaceId },
    select: {
      ...summary,
      summary: true,
      inputTokens: true,
      outputTokens: true,
      cancelRequestedAt: true,
    },
  });
  if (!run) throw notFound("Run");
  return run;
}

// Runs as every member may read them: status, timings, usage against budget, the result, the
// diff (size-capped) and the run's webhook reports — never the run's token or plan internals.
import type { Prisma, RunStatus, RunTrigger } from "@secondshift/db";
import { notFound, requireRole, type ActorContext } from "../context.ts";
import { pageQuery, toPage, type Page, type PageInput } from "../paging.ts";
import {
  triggerEventSelect,
  triggerEventView,
  type TriggerEventView,
} from "../triggers/events-view.ts";
import {
  deliveriesOfRun,
  deliverySelect,
  deliveryView,
  type DeliveryView,
} from "../webhooks/deliveries.ts";

export interface RunSummary {
  id: string;
  jobId: string;
  job: { key: string; name: string; repositoryId: string };
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
  job: { select: { key: true, name: true, repositoryId: true } },
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

export interface RunFilters {
  jobId?: string;
  repositoryId?: string;
  status?: RunStatus[];
  trigger?: RunTrigger;
  /** Inclusive lower bound on queuedAt. */
  since?: Date;
  /** Exclusive upper bound on queuedAt. */
  until?: Date;
}

function filterWhere(input: RunFilters): Prisma.RunWhereInput {
  return {
    ...(input.jobId === undefined ? {} : { jobId: input.jobId }),
    ...(input.repositoryId === undefined ? {} : { job: { repositoryId: input.repositoryId } }),
    ...(input.status === undefined ? {} : { status: { in: input.status } }),
    ...(input.trigger === undefined ? {} : { trigger: input.trigger }),
    ...(input.since === undefined && input.until === undefined
      ? {}
      : { queuedAt: { gte: input.since, lt: input.until } }),
  };
}

export async function listRuns(
  ctx: ActorContext,
  input: PageInput & RunFilters,
): Promise<Page<RunSummary>> {
  await requireRole(ctx, "read");
  const page = pageQuery(input);
  const rows = await ctx.db.run.findMany({
    ...page,
    where: { ...page.where, workspaceId: ctx.workspaceId, ...filterWhere(input) },
    select: summary,
  });
  return toPage(rows, input);
}

/** A diff larger than this is cut (the screen offers the rest nowhere; the repo has it). */
export const MAX_DIFF_CHARS = 256 * 1024;

export interface RunDetail extends RunSummary {
  summary: string | null;
  inputTokens: number;
  outputTokens: number;
  cancelRequestedAt: Date | null;
  usage: {
    tokensUsed: number;
    budgetTokens: number;
    /** 0…100 (rounded down); 100 when the budget is spent. */
    budgetPercent: number;
    /** Tool calls the model asked for (built-in and through the broker), from the transcript. */
    toolCalls: number;
  };
  timings: {
    /** Queued → started; null until it starts. */
    waitMs: number | null;
    /** Started → finished; null until it finishes. */
    runMs: number | null;
    /** Queued → finished; null until it finishes. */
    totalMs: number | null;
  };
  diff: { text: string; truncated: boolean; totalChars: number } | null;
  deliveries: DeliveryView[];
  /** The event that started it (trigger EVENT); null otherwise. */
  event: TriggerEventView | null;
}

const span = (from: Date | null, to: Date | null) =>
  from === null || to === null ? null : Math.max(0, to.getTime() - from.getTime());

function cappedDiff(diff: string | null): RunDetail["diff"] {
  if (diff === null || diff === "") return null;
  const truncated = diff.length > MAX_DIFF_CHARS;
  return {
    text: truncated ? diff.slice(0, MAX_DIFF_CHARS) : diff,
    truncated,
    totalChars: diff.length,
  };
}

export async function getRun(ctx: ActorContext, input: { runId: string }): Promise<RunDetail> {
  await requireRole(ctx, "read");
  const { db, workspaceId } = ctx;
  const run = await db.run.findFirst({
    where: { id: input.runId, workspaceId },
    select: {
      ...summary,
      summary: true,
      inputTokens: true,
      outputTokens: true,
      cancelRequestedAt: true,
      diff: true,
      triggerEvent: { select: triggerEventSelect },
    },
  });
  if (!run) throw notFound("Run");
  const [toolCalls, deliveries] = await Promise.all([
    // Every call the model asked for, built-in (read_file, shell, …) or through the broker:
    // the transcript's tool_call events (the audit log holds only the broker's).
    db.runEvent.count({ where: { workspaceId, runId: run.id, type: "tool_call" } }),
    db.webhookDelivery
      .findMany({
        where: { workspaceId, ...deliveriesOfRun(run.id) },
        select: deliverySelect,
        orderBy: { id: "desc" },
      })
      .then((rows) => rows.map(deliveryView)),
  ]);
  const { diff, triggerEvent, ...rest } = run;
  return {
    ...rest,
    usage: {
      tokensUsed: run.tokensUsed,
      budgetTokens: run.budgetTokens,
      budgetPercent:
        run.budgetTokens > 0
          ? Math.min(100, Math.floor((run.tokensUsed * 100) / run.budgetTokens))
          : 100,
      toolCalls,
    },
    timings: {
      waitMs: span(run.queuedAt, run.startedAt),
      runMs: span(run.startedAt, run.finishedAt),
      totalMs: span(run.queuedAt, run.finishedAt),
    },
    diff: cappedDiff(diff),
    deliveries,
    event: triggerEvent ? triggerEventView(triggerEvent) : null,
  };
}

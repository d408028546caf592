// What every member may read about jobs: plain rows, no prompt internals beyond what the
// repository already shows; plus what the schedule means (next fires, the cron in words) and
// the fires the scheduler skipped. Skips are the scheduler's "schedule.skipped" and
// "schedule.missed" audit rows (@secondshift/scheduler fire.ts: a skipped fire has no run to
// hang anything on).
import type { JobStatus } from "@secondshift/db";
import { nowOf, notFound, requireRole, type ActorContext } from "../context.ts";
import { runBudget } from "@secondshift/run-lifecycle";
import { isSchedulable } from "./schedulable.ts";
import { scheduleView } from "./schedule.ts";

export interface JobSummary {
  id: string;
  repositoryId: string;
  key: string;
  name: string;
  description: string | null;
  schedule: string | null;
  /** The cron in words ("At 09:00"); null without a schedule. */
  scheduleText: string | null;
  timezone: string;
  status: JobStatus;
  enabled: boolean;
  /** Whether its schedule fires (isSchedulable: approved, enabled, not removed, scheduled). */
  schedulable: boolean;
  configCommit: string;
  updatedAt: Date;
  /** The next three fires (empty when paused, unapproved, removed or unscheduled). */
  nextFireTimes: Date[];
  /** Fires the scheduler skipped in the last seven days, and the latest one. */
  skippedFires: { lastWeek: number; lastAt: Date | null };
}

export interface SkippedFire {
  at: Date;
  /**
   * The scheduler's code: "previous_run_active", "job_not_schedulable", or
   * "scheduler_was_down" (fire times passed while no scheduler ran; they were not run).
   */
  reason: string;
}

/** The scheduler's rows: a fire skipped (previous run active, job paused) or missed (down). */
const SKIPPED: { action: { in: string[] }; targetType: "Job" } = {
  action: { in: ["schedule.skipped", "schedule.missed"] },
  targetType: "Job",
};
const WEEK_MS = 7 * 24 * 3600_000;
const RECENT_SKIPS = 20;

const columns = {
  id: true,
  repositoryId: true,
  key: true,
  name: true,
  description: true,
  schedule: true,
  timezone: true,
  status: true,
  enabled: true,
  configCommit: true,
  updatedAt: true,
  removedAt: true,
} as const;

type JobRow = { id: string; schedule: string | null; timezone: string } & Omit<
  JobSummary,
  "scheduleText" | "nextFireTimes" | "skippedFires" | "schedulable"
> & { removedAt: Date | null };

function present(row: JobRow, now: Date, skips: JobSummary["skippedFires"]): JobSummary {
  const { removedAt: _removed, ...rest } = row;
  return {
    ...rest,
    schedulable: isSchedulable(row),
    ...scheduleView(row, now),
    skippedFires: skips,
  };
}

/** Skips per job since a week ago: one grouped query for the whole list. */
async function weeklySkips(ctx: ActorContext, jobIds: string[], now: Date) {
  if (jobIds.length === 0) return new Map<string, JobSummary["skippedFires"]>();
  const groups = await ctx.db.auditEvent.groupBy({
    by: ["targetId"],
    where: {
      workspaceId: ctx.workspaceId,
      ...SKIPPED,
      targetId: { in: jobIds },
      createdAt: { gte: new Date(now.getTime() - WEEK_MS) },
    },
    _count: { _all: true },
    _max: { createdAt: true },
  });
  return new Map(
    groups.map((g) => [
      g.targetId ?? "",
      { lastWeek: g._count._all, lastAt: g._max.createdAt ?? null },
    ]),
  );
}

export async function listJobs(
  ctx: ActorContext,
  input: { repositoryId?: string },
): Promise<JobSummary[]> {
  await requireRole(ctx, "read");
  const now = nowOf(ctx);
  const rows = await ctx.db.job.findMany({
    where: {
      workspaceId: ctx.workspaceId,
      ...(input.repositoryId === undefined ? {} : { repositoryId: input.repositoryId }),
    },
    select: columns,
    orderBy: [{ repositoryId: "asc" }, { key: "asc" }],
  });
  const skips = await weeklySkips(
    ctx,
    rows.map((r) => r.id),
    now,
  );
  return rows.map((row) => present(row, now, skips.get(row.id) ?? { lastWeek: 0, lastAt: null }));
}

export interface JobDetail extends JobSummary {
  prompt: string;
  model: string | null;
  /** The job's own budget per run; null when its config declares none. */
  tokenBudget: number | null;
  /** What its next run gets: its own budget, or the workspace's default. */
  effectiveTokenBudget: number;
  timeoutSeconds: number;
  /** The owner's choice: events from people without write access may start it (E03). */
  allowOutsiderEvents: boolean;
  /** The latest skipped fires, newest first (at most 20). */
  recentSkippedFires: SkippedFire[];
}

export async function getJob(ctx: ActorContext, input: { jobId: string }): Promise<JobDetail> {
  await requireRole(ctx, "read");
  const now = nowOf(ctx);
  const job = await ctx.db.job.findFirst({
    where: { id: input.jobId, workspaceId: ctx.workspaceId },
    select: {
      ...columns,
      prompt: true,
      model: true,
      tokenBudget: true,
      timeoutSeconds: true,
      allowOutsiderEvents: true,
    },
  });
  if (!job) throw notFound("Job");
  const [skips, recent, effectiveTokenBudget] = await Promise.all([
    weeklySkips(ctx, [job.id], now),
    ctx.db.auditEvent.findMany({
      where: { workspaceId: ctx.workspaceId, ...SKIPPED, targetId: job.id },
      select: { createdAt: true, outcome: true },
      orderBy: { id: "desc" },
      take: RECENT_SKIPS,
    }),
    runBudget(ctx.db, ctx.workspaceId, job.tokenBudget),
  ]);
  return {
    ...present(job, now, skips.get(job.id) ?? { lastWeek: 0, lastAt: null }),
    prompt: job.prompt,
    model: job.model,
    tokenBudget: job.tokenBudget,
    effectiveTokenBudget,
    timeoutSeconds: job.timeoutSeconds,
    allowOutsiderEvents: job.allowOutsiderEvents,
    recentSkippedFires: recent.map((r) => ({ at: r.createdAt, reason: r.outcome ?? "unknown" })),
  };
}

// What every member may read about jobs: plain rows, no prompt internals beyond what the
// repository already shows.
import type { JobStatus } from "@secondshift/db";
import { notFound, requireRole, type ActorContext } from "../context.ts";

export interface JobSummary {
  id: string;
  repositoryId: string;
  key: string;
  name: string;
  description: string | null;
  schedule: string | null;
  timezone: string;
  status: JobStatus;
  enabled: boolean;
  configCommit: string;
  updatedAt: Date;
}

const summary = {
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
} as const;

export async function listJobs(
  ctx: ActorContext,
  input: { repositoryId?: string },
): Promise<JobSummary[]> {
  await requireRole(ctx, "read");
  return ctx.db.job.findMany({
    where: {
      workspaceId: ctx.workspaceId,
      ...(input.repositoryId === undefined ? {} : { repositoryId: input.repositoryId }),
    },
    select: summary,
    orderBy: [{ repositoryId: "asc" }, { key: "asc" }],
  });
}

export interface JobDetail extends JobSummary {
  prompt: string;
  model: string | null;
  tokenBudget: number;
  timeoutSeconds: number;
}

export async function getJob(ctx: ActorContext, input: { jobId: string }): Promise<JobDetail> {
  await requireRole(ctx, "read");
  const job = await ctx.db.job.findFirst({
    where: { id: input.jobId, workspaceId: ctx.workspaceId },
    select: { ...summary, prompt: true, model: true, tokenBudget: true, timeoutSeconds: true },
  });
  if (!job) throw notFound("Job");
  return job;
}

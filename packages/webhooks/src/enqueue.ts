// After a run ends the worker records one delivery per matching webhook. The row is the
// durable to-do item (status PENDING, nextAttemptAt): nothing lives only in Redis or memory,
// so a worker or Redis restart loses no report. The unique (webhookId, runId) makes a repeated
// call (the run-finish step retried after a crash) a no-op instead of a second report.
import type { Db, RunStatus } from "@secondshift/db";
import { AppError } from "@secondshift/errors";

const UNFINISHED: readonly RunStatus[] = ["QUEUED", "RUNNING"];

export interface EnqueueResult {
  /** Deliveries created by this call (0 when they already existed or nothing matched). */
  created: number;
  /** Ids of the webhooks the run's report goes to. */
  webhookIds: string[];
}

export async function enqueueReports(
  db: Db,
  input: { workspaceId: string; runId: string; now?: Date },
): Promise<EnqueueResult> {
  const run = await db.run.findFirst({
    where: { id: input.runId, workspaceId: input.workspaceId },
    select: { id: true, status: true, job: { select: { key: true } } },
  });
  if (run === null)
    throw new AppError("NOT_FOUND", "That run does not exist in this workspace.", {
      reason: "RUN_NOT_FOUND",
    });
  if (UNFINISHED.includes(run.status)) {
    throw new AppError("CONFLICT", "A report is sent only after the run has finished.", {
      reason: "RUN_NOT_FINISHED",
    });
  }
  const webhooks = await db.webhook.findMany({
    where: { workspaceId: input.workspaceId, enabled: true },
    select: { id: true, jobKeys: true, statuses: true },
  });
  // Empty filters mean "every job" / "every outcome".
  const matching = webhooks.filter(
    (w) =>
      (w.jobKeys.length === 0 || w.jobKeys.includes(run.job.key)) &&
      (w.statuses.length === 0 || w.statuses.includes(run.status)),
  );
  if (matching.length === 0) return { created: 0, webhookIds: [] };
  const now = input.now ?? new Date();
  const { count } = await db.webhookDelivery.createMany({
    data: matching.map((w) => ({
      workspaceId: input.workspaceId,
      webhookId: w.id,
      runId: run.id,
      nextAttemptAt: now,
    })),
    skipDuplicates: true,
  });
  return { created: count, webhookIds: matching.map((w) => w.id) };
}

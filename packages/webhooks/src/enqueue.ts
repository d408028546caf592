// After a run ends the worker records one delivery per matching webhook. The row is the
// durable to-do item (status PENDING, nextAttemptAt): nothing lives only in Redis or memory,
// so a worker or Redis restart loses no report. The unique (webhookId, runId) makes a repeated
// call (the run-finish step retried after a crash) a no-op instead of a second report.
// An output applied or failed later (issue #24) gets one delivery per webhook the same way,
// unique per (webhookId, outputId).
import type { Db, Prisma, RunStatus } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { isFinal } from "@secondshift/vocabulary";
import { TEST_EVENT } from "./deliver.ts";
import { outputEventOf } from "./output-event-body.ts";

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
  if (!isFinal(run.status)) {
    throw new AppError("CONFLICT", "A report is sent only after the run has finished.", {
      reason: "RUN_NOT_FINISHED",
    });
  }
  const matching = await webhooksReporting(db, input.workspaceId, run);
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

/** The workspace's enabled webhooks whose filters take this run's report (empty = all). */
async function webhooksReporting(
  db: Db,
  workspaceId: string,
  run: { status: RunStatus; job: { key: string } },
): Promise<Array<{ id: string }>> {
  const webhooks = await db.webhook.findMany({
    where: { workspaceId, enabled: true },
    select: { id: true, jobKeys: true, statuses: true },
  });
  return webhooks.filter(
    (w) =>
      (w.jobKeys.length === 0 || w.jobKeys.includes(run.job.key)) &&
      (w.statuses.length === 0 || w.statuses.includes(run.status)),
  );
}

/**
 * After an output of a finished run became APPLIED or FAILED (applyOutput's `onSettled`): one
 * "output.applied" / "output.failed" delivery for each webhook that takes the run's report
 * (enabled, its job and status filters matching the run). Unique per (webhookId, outputId), so
 * a repeated call (the apply job retried, onSettled called again) creates nothing new (O06).
 * Only this workspace's output and webhooks are read (P05). Nothing for an output in any other
 * state.
 */
export async function enqueueOutputEvents(
  db: Db,
  input: { workspaceId: string; outputId: string; now?: Date },
): Promise<EnqueueResult> {
  const output = await db.runOutput.findFirst({
    where: { id: input.outputId, workspaceId: input.workspaceId },
    select: {
      id: true,
      state: true,
      run: { select: { status: true, job: { select: { key: true } } } },
    },
  });
  if (output === null)
    throw new AppError("NOT_FOUND", "That output does not exist in this workspace.", {
      reason: "OUTPUT_NOT_FOUND",
    });
  const event = outputEventOf(output.state);
  if (event === null) return { created: 0, webhookIds: [] };
  const matching = await webhooksReporting(db, input.workspaceId, output.run);
  if (matching.length === 0) return { created: 0, webhookIds: [] };
  const now = input.now ?? new Date();
  const { count } = await db.webhookDelivery.createMany({
    data: matching.map((w) => ({
      workspaceId: input.workspaceId,
      webhookId: w.id,
      // The run is the output's; runId stays null so the run's own report keeps its slot.
      runId: null,
      outputId: output.id,
      event,
      nextAttemptAt: now,
    })),
    skipDuplicates: true,
  });
  return { created: count, webhookIds: matching.map((w) => w.id) };
}

/**
 * One test event for one webhook (an owner's "send test"): a delivery row like a report's, due
 * now, so the worker sends it through the same claim, signature, netguard and retry path, and
 * its attempts are recorded the same way. Null when the webhook is not in the workspace.
 */
export async function enqueueTestDelivery(
  db: Db | Prisma.TransactionClient,
  input: { workspaceId: string; webhookId: string; now?: Date },
): Promise<{ id: string } | null> {
  const webhook = await db.webhook.findFirst({
    where: { id: input.webhookId, workspaceId: input.workspaceId },
    select: { id: true },
  });
  if (webhook === null) return null;
  return db.webhookDelivery.create({
    data: {
      workspaceId: input.workspaceId,
      webhookId: webhook.id,
      runId: null,
      event: TEST_EVENT,
      nextAttemptAt: input.now ?? new Date(),
    },
    select: { id: true },
  });
}

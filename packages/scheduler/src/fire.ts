// One schedule fire → at most one run. The Run(jobId, scheduledFor) unique key makes a fire
// delivered twice (BullMQ retry, stalled job) find its run instead of creating a second; the
// job's advisory lock makes the "previous run still going" check and the insert atomic.
//
// Skips are recorded as AuditEvents (action "schedule.skipped", outcome = the reason): a
// skipped fire has no run to hang a RunEvent on, and the audit log is what owners read to
// learn why something did not happen. A fire delivered after the job's next fire time already
// passed (the scheduler was down) stands for every fire in between — BullMQ computes the next
// one from "now" — so those are recorded too, once, as "schedule.missed".
import {
  isSchedulable,
  recordAudit,
  SYSTEM_SCHEDULER,
  type AuditAction,
} from "@secondshift/domain";
import { insertQueuedRun, lockJobRuns } from "@secondshift/run-lifecycle";
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import { ACTIVE_STATUSES } from "@secondshift/vocabulary";
import { nextFireTimes } from "./cron.ts";
import { isUniqueViolation } from "./job-runs.ts";
import { addRunToQueue, type RunQueue } from "./queues.ts";

export const SCHEDULE_SKIPPED_ACTION: AuditAction = "schedule.skipped";
export const SCHEDULE_MISSED_ACTION: AuditAction = "schedule.missed";

/** Whether a later fire time of the job passed before this fire was handled. */
function firesMissed(job: { schedule: string | null; timezone: string }, fire: Fire, now: Date) {
  if (job.schedule === null) return false;
  try {
    const [next] = nextFireTimes(job.schedule, job.timezone, fire.scheduledFor, 1);
    return next !== undefined && next.getTime() < now.getTime();
  } catch {
    return false;
  }
}

export type SkipReason = "previous_run_active" | "job_not_schedulable";

export type FireOutcome =
  | { outcome: "created"; runId: string }
  | { outcome: "duplicate"; runId: string }
  | { outcome: "skipped"; reason: SkipReason };

export interface Fire {
  workspaceId: string;
  jobId: string;
  /** The fire's scheduled time (not the time it was delivered). */
  scheduledFor: Date;
}

export async function handleFire(
  db: Db,
  runQueue: RunQueue,
  fire: Fire,
  logger?: Logger,
  now: Date = new Date(),
): Promise<FireOutcome> {
  let outcome: FireOutcome;
  let enqueue: boolean;
  try {
    [outcome, enqueue] = await db.$transaction(async (tx): Promise<[FireOutcome, boolean]> => {
      await lockJobRuns(tx, fire.jobId);
      // One query for the job and the runs that decide this fire: its own run (a redelivery)
      // and any active run (overlap). Runs cascade with their job, so no job means no runs.
      const job = await tx.job.findFirst({
        where: { id: fire.jobId, workspaceId: fire.workspaceId },
        select: {
          name: true,
          status: true,
          enabled: true,
          removedAt: true,
          schedule: true,
          timezone: true,
          tokenBudget: true,
          runs: {
            where: {
              OR: [{ scheduledFor: fire.scheduledFor }, { status: { in: [...ACTIVE_STATUSES] } }],
            },
            select: { id: true, status: true, scheduledFor: true },
          },
        },
      });
      if (!job) return [{ outcome: "skipped", reason: "job_not_schedulable" }, false];
      const existing = job.runs.find(
        (r) => r.scheduledFor?.getTime() === fire.scheduledFor.getTime(),
      );
      if (existing)
        return [{ outcome: "duplicate", runId: existing.id }, existing.status === "QUEUED"];
      if (firesMissed(job, fire, now)) {
        await recordAudit(tx, {
          workspaceId: fire.workspaceId,
          actorType: "SYSTEM",
          actorId: SYSTEM_SCHEDULER,
          action: SCHEDULE_MISSED_ACTION,
          targetType: "Job",
          targetId: fire.jobId,
          targetLabel: job.name,
          outcome: "scheduler_was_down",
        });
      }

      // The scheduler may lag a pause, removal or lost approval by one fire: the database decides.
      const schedulable = isSchedulable(job);
      const active = job.runs.length > 0;
      if (!schedulable || active) {
        const reason: SkipReason = schedulable ? "previous_run_active" : "job_not_schedulable";
        await recordAudit(tx, {
          workspaceId: fire.workspaceId,
          actorType: "SYSTEM",
          actorId: SYSTEM_SCHEDULER,
          action: SCHEDULE_SKIPPED_ACTION,
          targetType: "Job",
          targetId: fire.jobId,
          targetLabel: job.name,
          outcome: reason,
        });
        return [{ outcome: "skipped", reason }, false];
      }
      const run = await insertQueuedRun(tx, {
        workspaceId: fire.workspaceId,
        jobId: fire.jobId,
        trigger: "SCHEDULE",
        scheduledFor: fire.scheduledFor,
        jobTokenBudget: job.tokenBudget,
      });
      return [{ outcome: "created", runId: run.id }, true];
    });
  } catch (error) {
    // Only reachable if something inserted this fire's run without taking the job lock.
    if (!isUniqueViolation(error)) throw error;
    const run = await db.run.findUniqueOrThrow({
      where: { jobId_scheduledFor: { jobId: fire.jobId, scheduledFor: fire.scheduledFor } },
      select: { id: true, status: true },
    });
    [outcome, enqueue] = [{ outcome: "duplicate", runId: run.id }, run.status === "QUEUED"];
  }

  // After commit, so the run worker always finds the row. A crash between commit and this
  // add leaves a QUEUED run that `requeueQueuedRuns` puts back; a duplicate add is a no-op
  // because the BullMQ job id is the run id.
  if (enqueue && outcome.outcome !== "skipped") {
    await addRunToQueue(runQueue, { runId: outcome.runId, workspaceId: fire.workspaceId });
  }
  logger?.info(
    {
      ...outcome,
      jobId: fire.jobId,
      workspaceId: fire.workspaceId,
      scheduledFor: fire.scheduledFor.toISOString(),
    },
    "schedule fire",
  );
  return outcome;
}

// Makes Redis hold exactly one BullMQ job scheduler per schedulable job (`isSchedulable`:
// APPROVED, enabled, not removed, with a schedule). The database is the source of truth; this
// only converges Redis to it, so it is safe (and cheap) to call at every worker start and after
// every repo sync, approval, pause or resume.
import type { JobSchedulerJson } from "bullmq";
import type { Db } from "@secondshift/db";
import { isSchedulable } from "@secondshift/domain";
import type { Logger } from "@secondshift/logging";
import { validateSchedule } from "./cron.ts";
import {
  FIRE_JOB_NAME,
  SCHEDULER_ID_PREFIX,
  fireJobOptions,
  schedulerIdForJob,
  type FireJobData,
  type ScheduleQueue,
} from "./queues.ts";

export interface SyncSchedulesOptions {
  /** Only converge this workspace's schedulers (others are left untouched). */
  workspaceId?: string;
  logger?: Logger;
}

export interface SyncSchedulesResult {
  created: string[];
  updated: string[];
  removed: string[];
  unchanged: string[];
  /** Jobs whose stored schedule or time zone cannot be used; their scheduler is removed. */
  invalid: { jobId: string; error: string }[];
}

interface DesiredSchedule {
  jobId: string;
  workspaceId: string;
  pattern: string;
  tz: string;
}

export async function syncSchedules(
  db: Db,
  queue: ScheduleQueue,
  options: SyncSchedulesOptions = {},
): Promise<SyncSchedulesResult> {
  const result: SyncSchedulesResult = {
    created: [],
    updated: [],
    removed: [],
    unchanged: [],
    invalid: [],
  };
  const desired = await loadDesired(db, options.workspaceId);
  const existing = await loadExisting(queue, options.workspaceId);

  for (const want of desired.values()) {
    const id = schedulerIdForJob(want.jobId);
    const have = existing.get(id);
    try {
      validateSchedule(want.pattern, want.tz);
    } catch (error) {
      result.invalid.push({
        jobId: want.jobId,
        error: error instanceof Error ? error.message : String(error),
      });
      options.logger?.warn(
        { jobId: want.jobId, workspaceId: want.workspaceId },
        "job schedule is invalid; scheduler removed",
      );
      continue; // not kept in `existing`'s keep-set below, so an old scheduler is removed
    }
    existing.delete(id);
    // Re-upserting an unchanged scheduler would replace its pending fire with the next
    // future one, silently dropping a fire that is due while workers were down.
    if (have && isSame(have, want)) {
      result.unchanged.push(want.jobId);
      continue;
    }
    const data: FireJobData = { workspaceId: want.workspaceId, jobId: want.jobId };
    await queue.upsertJobScheduler(
      id,
      { pattern: want.pattern, tz: want.tz },
      { name: FIRE_JOB_NAME, data, opts: fireJobOptions },
    );
    (have ? result.updated : result.created).push(want.jobId);
  }

  for (const [id, have] of existing) {
    await queue.removeJobScheduler(id);
    result.removed.push(jobIdOf(have));
  }
  if (result.created.length + result.updated.length + result.removed.length > 0) {
    options.logger?.info(
      {
        created: result.created.length,
        updated: result.updated.length,
        removed: result.removed.length,
        workspaceId: options.workspaceId,
      },
      "schedules synced",
    );
  }
  return result;
}

/**
 * The schedulable jobs (scoped to a workspace if given), picked by `isSchedulable` rather than by
 * a WHERE of their own so that this and each fire apply the same rule. The few columns read per
 * job are small, and this runs at worker start and after a workspace's changes, not per fire.
 */
async function loadDesired(
  db: Db,
  workspaceId: string | undefined,
): Promise<Map<string, DesiredSchedule>> {
  const jobs = await db.job.findMany({
    where: workspaceId === undefined ? {} : { workspaceId },
    select: {
      id: true,
      workspaceId: true,
      status: true,
      enabled: true,
      removedAt: true,
      schedule: true,
      timezone: true,
    },
  });
  const desired = new Map<string, DesiredSchedule>();
  for (const job of jobs.filter(isSchedulable)) {
    const pattern = job.schedule.trim();
    if (!pattern) continue; // a blank schedule gets no scheduler
    desired.set(job.id, { jobId: job.id, workspaceId: job.workspaceId, pattern, tz: job.timezone });
  }
  return desired;
}

/** Our schedulers currently in Redis, keyed by scheduler id (scoped to a workspace if given). */
async function loadExisting(
  queue: ScheduleQueue,
  workspaceId: string | undefined,
): Promise<Map<string, JobSchedulerJson<FireJobData>>> {
  const all = await queue.getJobSchedulers(0, -1, true);
  const existing = new Map<string, JobSchedulerJson<FireJobData>>();
  for (const scheduler of all) {
    if (!scheduler.key.startsWith(SCHEDULER_ID_PREFIX)) continue;
    if (workspaceId !== undefined && scheduler.template?.data?.workspaceId !== workspaceId)
      continue;
    existing.set(scheduler.key, scheduler);
  }
  return existing;
}

function isSame(have: JobSchedulerJson<FireJobData>, want: DesiredSchedule): boolean {
  return (
    have.pattern === want.pattern &&
    have.tz === want.tz &&
    have.every === undefined &&
    have.template?.data?.workspaceId === want.workspaceId &&
    have.template?.data?.jobId === want.jobId
  );
}

function jobIdOf(scheduler: JobSchedulerJson<FireJobData>): string {
  return scheduler.template?.data?.jobId ?? scheduler.key.slice(SCHEDULER_ID_PREFIX.length);
}

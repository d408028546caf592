// What a job's schedule means for the screens: the next fire times, computed with BullMQ's own
// `getNextMillis` (cron-parser with the IANA time zone) — the function the job scheduler uses —
// so a prediction is exactly what will happen; and the cron in words (cronstrue).
import { getNextMillis } from "bullmq";
import cronstrue from "cronstrue";
import { isSchedulable, type SchedulableJob } from "./schedulable.ts";

/** The next `count` fire times strictly after `from`, as the scheduler will compute them. */
export function nextFireTimes(pattern: string, tz: string, from: Date, count: number): Date[] {
  const times: Date[] = [];
  let cursor = from.getTime();
  for (let i = 0; i < count; i++) {
    const next = getNextMillis(cursor, { pattern, tz });
    if (next === undefined) break;
    times.push(new Date(next));
    cursor = next;
  }
  return times;
}

/** "At 09:00 AM, Monday through Friday"; null when cronstrue cannot read the pattern. */
export function describeSchedule(pattern: string): string | null {
  try {
    return cronstrue.toString(pattern, { use24HourTimeFormat: true, verbose: false });
  } catch {
    return null;
  }
}

export interface ScheduleView {
  /** The cron in words, e.g. "At 09:00"; null without a schedule. */
  scheduleText: string | null;
  /** The next three fires; empty when the job is not scheduled (paused, unapproved, removed). */
  nextFireTimes: Date[];
}

export function scheduleView(job: SchedulableJob & { timezone: string }, now: Date): ScheduleView {
  if (job.schedule === null) return { scheduleText: null, nextFireTimes: [] };
  return {
    scheduleText: describeSchedule(job.schedule),
    nextFireTimes: isSchedulable(job) ? upcomingFires(job.schedule, job.timezone, now) : [],
  };
}

function upcomingFires(pattern: string, tz: string, now: Date): Date[] {
  try {
    return nextFireTimes(pattern, tz, now, 3);
  } catch {
    // A pattern the sync accepted but cron-parser refuses now: show no fires, not an error.
    return [];
  }
}

// Job states and schedules in words.
import cronstrue from "cronstrue";

export const STATUS_WORDS = {
  NEEDS_APPROVAL: { text: "Waiting for approval", tone: "warn" },
  APPROVED: { text: "Approved", tone: "good" },
  REJECTED: { text: "Rejected", tone: "bad" },
  REMOVED: { text: "Removed from the repository", tone: "neutral" },
} as const;

/** "At 09:00 AM, Monday through Friday (Europe/Paris)"; the raw expression if it cannot be read. */
export function scheduleInWords(schedule: string | null, timezone: string): string {
  if (!schedule) return "No schedule (runs only when started by hand)";
  try {
    return `${cronstrue.toString(schedule, { use24HourTimeFormat: true })} (${timezone})`;
  } catch {
    return `${schedule} (${timezone})`;
  }
}

/** Fields being added to the API on another branch; shown only when the API returns them. */
export interface ScheduleExtras {
  nextFireTimes?: Date[];
  skippedFires?: { lastWeek: number; lastAt: Date | null };
  recentSkippedFires?: Array<{ at: Date; reason: string }>;
}

export function scheduleExtras(job: object): ScheduleExtras {
  return job;
}

/**
 * The schedule's badge: on only when the API says the schedule fires (`schedulable`, the
 * domain's isSchedulable); an unapproved job's schedule is off, a paused one says so; no badge
 * without a schedule (nothing to pause).
 */
export function scheduleBadge(job: {
  schedule: string | null;
  schedulable: boolean;
  enabled: boolean;
  status: keyof typeof STATUS_WORDS;
}): { text: string; tone: "good" | "neutral" } | null {
  if (job.schedule === null) return null;
  if (job.schedulable) return { text: "Schedule on", tone: "good" };
  if (job.status === "NEEDS_APPROVAL")
    return { text: "Schedule off until approved", tone: "neutral" };
  if (job.status !== "APPROVED") return { text: "Schedule off", tone: "neutral" };
  return job.enabled
    ? { text: "Schedule off", tone: "neutral" }
    : { text: "Paused", tone: "neutral" };
}

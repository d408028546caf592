// Whether a job's schedule fires, in one place: the screens predict fires only for such a job,
// the scheduler keeps a BullMQ job scheduler only for such a job, and each fire re-checks it
// (the scheduler may lag a pause, removal or lost approval by one fire). Three readers of one
// rule, so they cannot drift apart.
import type { JobStatus } from "@secondshift/db";

/** The columns of a Job the rule reads. */
export interface SchedulableJob {
  status: JobStatus;
  enabled: boolean;
  removedAt: Date | null;
  schedule: string | null;
}

/** APPROVED, enabled, not removed, and with a schedule. */
export function isSchedulable<T extends SchedulableJob>(job: T): job is T & { schedule: string } {
  return (
    job.status === "APPROVED" && job.enabled && job.removedAt === null && job.schedule !== null
  );
}

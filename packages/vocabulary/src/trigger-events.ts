// A GitHub event as it met one job (issue #25; prisma TriggerEvent): what came of it and why,
// in one spelling for the web process's intake, the worker's actor check and the job page.
// How a run started (RunTrigger) is here too, for the runs filter and the report.

/** How a run was started, in the database's order (prisma RunTrigger). */
export const RUN_TRIGGERS = ["SCHEDULE", "MANUAL", "EVENT"] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export const RUN_TRIGGER_LABELS: Record<RunTrigger, string> = {
  SCHEDULE: "Schedule",
  MANUAL: "Manual",
  EVENT: "Event",
};

/**
 * queued: the event queued a run of the job. superseded: its queued run was replaced by a
 * newer event for the same pull request before it started. dropped: no run (dropReason says
 * why; also set when the worker refused the actor before the run started).
 */
export const TRIGGER_EVENT_OUTCOMES = ["queued", "superseded", "dropped"] as const;
export type TriggerEventOutcome = (typeof TRIGGER_EVENT_OUTCOMES)[number];

/** Why an event that matched a job's trigger started no run, as the job page says it. */
export const TRIGGER_EVENT_DROP_REASONS = {
  rate_limit: "Dropped: the workspace's limit of event-started runs per hour was reached.",
  job_not_approved: "Dropped: the job is not approved (or paused), so events do not start it.",
  bot: "Ignored: sent by a bot, and this job's trigger does not take bots.",
  own_app:
    "Ignored: written by SecondShift's own GitHub App; its own actions never start runs (no loops).",
  actor_not_allowed:
    "Not started: the sender has no write access to the repository, and the owner has not allowed events from others for this job.",
  actor_check_failed:
    "Not started: the sender's permission on the repository could not be checked; the delivery can be redelivered from GitHub.",
} as const;
export type TriggerEventDropReason = keyof typeof TRIGGER_EVENT_DROP_REASONS;

export function isTriggerEventDropReason(value: unknown): value is TriggerEventDropReason {
  return typeof value === "string" && Object.hasOwn(TRIGGER_EVENT_DROP_REASONS, value);
}

/** GitHub repository permissions that count as write access (E03). */
export const WRITE_PERMISSIONS = ["admin", "maintain", "write"] as const;

export function hasWriteAccess(permission: string | null | undefined): boolean {
  return (WRITE_PERMISSIONS as readonly string[]).includes(permission ?? "");
}

/** The reason an output of an outsider's event run is held (E03). */
export const OUTSIDER_HOLD_REASON =
  "Held for approval: the event that started this run came from someone without write access to the repository.";

/** The reason a running run's pull request output is held when a newer head arrived (E04). */
export const SUPERSEDED_HOLD_REASON =
  "Held as superseded: newer commits were pushed to the pull request while this run was going.";

/** The platform tool that returns an event's texts (bodies, comment) as tool output (E02). */
export const EVENT_TEXT_TOOL = "secondshift_event_text";

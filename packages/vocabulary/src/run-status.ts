// A run's statuses, in the database's order (prisma/schema.prisma's RunStatus; a test in
// packages/db keeps the two equal). Which ones end a run is decided here, once, for the
// lifecycle, the API's live transcript and the web app's filters and badges.

export const RUN_STATUSES = [
  "QUEUED",
  "RUNNING",
  "SUCCEEDED",
  "FAILED",
  "TIMED_OUT",
  "CANCELLED",
  "BUDGET_EXHAUSTED",
  "REVOKED",
  "SUPERSEDED",
] as const;

export type RunStatus = (typeof RUN_STATUSES)[number];

/** A run in one of these has not ended yet: waiting for a worker, or being executed. */
export const ACTIVE_STATUSES = ["QUEUED", "RUNNING"] as const satisfies readonly RunStatus[];

export type ActiveStatus = (typeof ACTIVE_STATUSES)[number];

/** Every other status ends the run: nothing changes it afterwards. */
export const FINAL_STATUSES = [
  "SUCCEEDED",
  "FAILED",
  "TIMED_OUT",
  "CANCELLED",
  "BUDGET_EXHAUSTED",
  "REVOKED",
  /** A queued event run replaced by a newer event for the same pull request (E04). */
  "SUPERSEDED",
] as const satisfies readonly RunStatus[];

export type FinalStatus = (typeof FINAL_STATUSES)[number];

export function isRunStatus(value: unknown): value is RunStatus {
  return (RUN_STATUSES as readonly unknown[]).includes(value);
}

export function isFinal(status: RunStatus): status is FinalStatus {
  return (FINAL_STATUSES as readonly RunStatus[]).includes(status);
}

export function isActive(status: RunStatus): status is ActiveStatus {
  return (ACTIVE_STATUSES as readonly RunStatus[]).includes(status);
}

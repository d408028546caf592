// Every way a run's status may change, in one typed table. A transition is allowed only from
// the states listed; packages/run-lifecycle turns each row into one conditional UPDATE, so two
// callers racing for the same run (a cancel and a finish, two gateways) change it at most once.
// The web app reads the same names in the transcript's status events.
import { FINAL_STATUSES, type RunStatus } from "./run-status.ts";

export interface Transition {
  from: readonly RunStatus[];
  /** The status written; "finish" takes it from its caller (one of `to`). */
  to: readonly RunStatus[];
}

export const TRANSITIONS = {
  /** A worker starts a queued run (under the workspace's concurrency limit). */
  claim: { from: ["QUEUED"], to: ["RUNNING"] },
  /** The owner or an admin cancels a run that has not started. */
  cancelQueued: { from: ["QUEUED"], to: ["CANCELLED"] },
  /** A newer event for the same pull request and job replaces a queued event run (E04). */
  supersede: { from: ["QUEUED"], to: ["SUPERSEDED"] },
  /**
   * The worker, before start: the event's actor may not start this job (no write access and the
   * owner did not allow it, E03), so the queued run never starts.
   */
  refuseEventActor: { from: ["QUEUED"], to: ["CANCELLED"] },
  /** The run cannot go on: plan refused, executor error, executor left it running. */
  fail: { from: ["QUEUED", "RUNNING"], to: ["FAILED"] },
  /** The executor records how the agent loop ended. */
  finish: { from: ["RUNNING"], to: FINAL_STATUSES },
  /** The gateway: the run has used its token budget. */
  exhaustBudget: { from: ["RUNNING"], to: ["BUDGET_EXHAUSTED"] },
  /** The broker: a grant or connection the run uses was revoked (C06). */
  revoke: { from: ["RUNNING"], to: ["REVOKED"] },
  /** Recovery: the run's worker stopped sending heartbeats. */
  loseWorker: { from: ["RUNNING"], to: ["FAILED"] },
} as const satisfies Record<string, Transition>;

export type TransitionName = keyof typeof TRANSITIONS;

export const TRANSITION_NAMES = Object.keys(TRANSITIONS) as TransitionName[];

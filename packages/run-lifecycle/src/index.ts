export {
  BUDGET_EXHAUSTED_ERROR,
  WORKER_LOST_ERROR,
  claimRun,
  exhaustBudget,
  failLostRuns,
  failRun,
  finishRun,
  heartbeat,
  refuseEventActor,
  requestCancel,
  revokeRun,
  supersedeRun,
} from "./lifecycle.ts";
export type { ClaimResult, FinishInput, LostRun, Queryable, RunRef } from "./lifecycle.ts";
export { appendRunEvent } from "./events.ts";
export { FINAL_STATUSES, TRANSITIONS, isFinal } from "./transitions.ts";
export type { FinalStatus, TransitionName } from "./transitions.ts";
export { findActiveRun, insertQueuedRun, lockJobRuns, runBudget } from "./queued-run.ts";

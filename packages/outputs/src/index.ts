// Results that leave a run (issue #24): proposals recorded through the broker's platform tools,
// checked at finalize (limits, secrets, protected paths), and applied to GitHub after the run.
export * from "./apply/index.ts";
export {
  checkRunOutputs,
  grantedOutputsOfRun,
  holdOutputs,
  UNCHECKED_REASON,
} from "./check/check-run.ts";
export type { CheckedOutput, CheckRun } from "./check/check-run.ts";
export type { OutputCheckConfig } from "./check/pull-request.ts";
export { eventHoldsOfRun } from "./check/event-holds.ts";
export type { EventHolds } from "./check/event-holds.ts";
export { limitProblem } from "./check/limits.ts";
export { reviewProposals, reviewHold } from "./review/review-proposals.ts";
export type { ReviewedProposal, ReviewModelCall } from "./review/review-proposals.ts";
export { parseReviewVerdict, UNCLEAR_VERDICT } from "./review/verdict.ts";
export { THREAT_REVIEW_SYSTEM_PROMPT } from "./review/prompt.ts";
export { secretFinding } from "./check/scan.ts";
export type { KnownSecrets } from "./check/scan.ts";
export { attachPullRequestChanges } from "./changes/attach-changes.ts";
export type { RunSource } from "./changes/attach-changes.ts";
export { collectChanges } from "./changes/collect-changes.ts";
export { workspaceDiff } from "./changes/workspace-diff.ts";
export type { BaseTree, ChangeLimits, CollectedChanges } from "./changes/collect-changes.ts";
export type { ExecSandbox } from "./changes/workspace-index.ts";
export { createOutputMetrics } from "./metrics.ts";
export type { OutputMetrics } from "./metrics.ts";

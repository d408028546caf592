// How an agent outcome becomes a run status, and which statuses are final.
import type { AgentOutcome } from "@secondshift/agent";
import type { RunStatus } from "@secondshift/db";

export const finalStatuses: readonly RunStatus[] = [
  "SUCCEEDED",
  "FAILED",
  "TIMED_OUT",
  "CANCELLED",
  "BUDGET_EXHAUSTED",
  "REVOKED",
];

export function isFinal(status: RunStatus): boolean {
  return finalStatuses.includes(status);
}

export function statusFor(outcome: AgentOutcome): RunStatus {
  switch (outcome) {
    case "succeeded":
      return "SUCCEEDED";
    case "timed_out":
      return "TIMED_OUT";
    case "cancelled":
      return "CANCELLED";
    case "budget_exhausted":
      return "BUDGET_EXHAUSTED";
    case "revoked":
      return "REVOKED";
    default:
      return "FAILED";
  }
}

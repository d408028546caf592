// How an agent outcome becomes a run status.
import type { AgentOutcome } from "@secondshift/agent";
import type { FinalStatus } from "@secondshift/run-lifecycle";

export function statusFor(outcome: AgentOutcome): FinalStatus {
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

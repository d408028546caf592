// The access check of one call (C06, C18): what the re-read found, in the order a user would
// ask — is the run active, is the grant still there and for this request, is the connection
// still there, is the tool still allowed and granted. The first failure is the refusal.
import type { PlanEntry } from "./plan.ts";
import type { AccessState } from "./access-state.ts";
import { ToolCallError } from "./refusals.ts";

/** The run is active and its grant is live for the job's current request (every tool call). */
export function checkRunAccess(
  state: AccessState | null,
  run: { jobId: string },
): asserts state is AccessState {
  if (!state || state.runJobId !== run.jobId)
    throw new ToolCallError("RUN_NOT_ACTIVE", "This run was not found.");
  if (state.runStatus !== "RUNNING")
    throw new ToolCallError(
      "RUN_NOT_ACTIVE",
      `This run is ${state.runStatus.toLowerCase()}; it cannot call tools.`,
    );
  if (!state.grantFound || state.grantRevoked)
    throw new ToolCallError("GRANT_REVOKED", "The owner revoked this job's access; the run stops.");
  if (state.grantHash !== state.jobHash)
    throw new ToolCallError(
      "REQUEST_CHANGED",
      "The job's tool request changed since it was approved; the run stops until an owner approves it.",
    );
}

export function checkAccess(
  state: AccessState | null,
  run: { jobId: string },
  entry: PlanEntry,
): AccessState {
  checkRunAccess(state, run);
  if (!state.connectionFound || state.connectionDeleted)
    throw new ToolCallError(
      "CONNECTION_REMOVED",
      "The owner removed the connection this tool uses; the run stops.",
    );
  if (!state.allowedTools.includes(entry.tool) || !state.granted)
    throw new ToolCallError(
      "TOOL_NOT_ALLOWED",
      `The owner no longer allows "${entry.name}"; the run stops.`,
    );
  return state;
}

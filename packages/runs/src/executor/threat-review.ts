// The threat review's model call (issue #24 phase c): made at finalize with the run's own token
// through the gateway, in the provider's wire format, by the agent's own SDK clients — so the
// gateway counts its tokens against the run's budget like any turn of the loop. It must run
// before revokeRunTokens: checkOutputs does, and only for a plan whose outputs ask for it.
import { completeOnce, type ModelConfig } from "@secondshift/agent";
import type { ReviewModelCall } from "@secondshift/outputs";
import type { PreparedRun } from "./prepare.ts";
import type { RunContext } from "./run-context.ts";

/** One review request may take this long (the run's deadline also ends its token). */
export const REVIEW_CALL_TIMEOUT_MS = 120_000;

/** The model the agent loop used, as prepareRun chose it: the review uses the same. */
export function reviewModel(ctx: RunContext, prepared: PreparedRun): ModelConfig {
  return {
    provider: prepared.providerKind,
    baseUrl: ctx.deps.gatewayUrl,
    runToken: prepared.token,
    model: prepared.model,
  };
}

export function threatReviewCall(model: ModelConfig): ReviewModelCall {
  return async ({ system, user, maxOutputTokens }) => {
    const signal = AbortSignal.timeout(REVIEW_CALL_TIMEOUT_MS);
    const answer = await completeOnce({ ...model, maxOutputTokens }, { system, user, signal });
    return answer.text;
  };
}

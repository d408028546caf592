// Step 3, always run: give back what the steps acquired (token, sandbox, checkout, the broker's
// hold on the run), record the result through the run lifecycle, and enqueue the webhook reports.
import type { AgentResult, ModelConfig } from "@secondshift/agent";
import type { RunStatus } from "@secondshift/db";
import { finishRun, type FinalStatus } from "@secondshift/run-lifecycle";
import { statusFor } from "../outcome.ts";
import { revokeRunTokens } from "../run-token.ts";
import { checkOutputs, enqueueReadyOutputs } from "./outputs.ts";
import type { RunContext } from "./run-context.ts";
import { threatReviewCall } from "./threat-review.ts";
import { StepFailed } from "./steps.ts";

export interface ExecuteRunResult {
  status: RunStatus;
  error?: string;
}

/** What the steps produced: the agent's result, or the (masked) error of the step that failed. */
export interface StepsOutcome {
  result?: AgentResult;
  diff: string | null;
  failure?: string;
  /** The run's model and token, once prepared: finalize's threat review calls it (issue #24). */
  model?: ModelConfig;
}

/** Turns a step's failure into the run's error: masked, logged, and shown in the transcript. */
export async function reportFailure(ctx: RunContext, error: unknown): Promise<string> {
  const failed = error instanceof StepFailed ? error : undefined;
  const message = failed
    ? failed.userMessage()
    : `The run failed: ${error instanceof Error ? error.message : String(error)}`;
  const failure = ctx.deps.masker.mask(message);
  ctx.log.warn(
    { event: "run.failed", step: failed?.step, err: failed?.failure ?? error },
    "run failed",
  );
  await appendError(ctx, failure);
  return failure;
}

export async function finalizeRun(
  ctx: RunContext,
  outcome: StepsOutcome,
): Promise<ExecuteRunResult> {
  ctx.watch.close();
  const status = finalStatus(ctx, outcome);
  // While the run's secrets are still known and before the sandbox goes (O05); the threat
  // review, when the plan asks for it, needs the run token: before it is revoked.
  const review = outcome.model ? threatReviewCall(outcome.model) : undefined;
  const checked = await checkOutputs(ctx, status, review);
  await revokeRunTokens(ctx.deps.db, ctx.scope).catch((e: unknown) =>
    ctx.log.error({ err: e }, "token revocation failed"),
  );
  for (const cleanup of ctx.cleanups.splice(0)) await cleanup.release();
  await releaseRun(ctx);
  const recorded = await recordResult(ctx, outcome, status);
  await enqueueReadyOutputs(ctx, checked, recorded.status);
  await ctx.events
    .append({
      type: "run_finished",
      payload: { status: recorded.status, ...(recorded.error ? { error: recorded.error } : {}) },
    })
    .catch(() => undefined);
  await ctx.deps
    .enqueueReports({ workspaceId: ctx.run.workspaceId, runId: ctx.run.id })
    .catch((e: unknown) => ctx.log.error({ err: e }, "enqueueing webhook reports failed"));
  ctx.log.info({ event: "run.finished", status: recorded.status }, "run finished");
  return { status: recorded.status, ...(recorded.error ? { error: recorded.error } : {}) };
}

/**
 * Drops what the broker and connectors hold for the run (plan cache, sessions). Every tool call's
 * audit record was already written when the call ended (a failed write refuses the call with
 * AUDIT_UNAVAILABLE and fails the run there), so a failed release is only logged.
 */
async function releaseRun(ctx: RunContext): Promise<void> {
  try {
    await ctx.deps.releaseRun?.(ctx.run.id);
  } catch (e) {
    ctx.log.error({ err: e }, "releasing run resources failed");
  }
}

function finalStatus(ctx: RunContext, outcome: StepsOutcome): FinalStatus {
  if (ctx.watch.reason() === "cancelled") return "CANCELLED";
  return outcome.failure ? "FAILED" : statusFor(outcome.result?.outcome ?? "failed");
}

async function recordResult(ctx: RunContext, outcome: StepsOutcome, status: FinalStatus) {
  const { result, failure, diff } = outcome;
  const { masker } = ctx.deps;
  const stopReason = ctx.watch.reason();
  // Ended elsewhere (gateway budget, broker revocation): the loop only saw its signal abort, so
  // its message ("cancelled") is not the reason; the status and finishRun say why.
  const agentError =
    result?.outcome === "succeeded" || stopReason === "ended_elsewhere" ? undefined : result?.error;
  return finishRun(ctx.deps.db, ctx.scope, {
    status,
    error: failure ?? (agentError ? masker.mask(agentError) : undefined),
    summary: result?.summary ? masker.mask(result.summary) : undefined,
    diff: diff ? masker.mask(diff) : null,
  });
}

function appendError(ctx: RunContext, message: string): Promise<void> {
  return ctx.events.append({ type: "error", payload: { message } }).catch(() => undefined);
}

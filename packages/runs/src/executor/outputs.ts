// The run's proposed outputs at finalize (issue #24): checked while the run's secrets are still
// in the masker scope and before the sandbox goes (O05), and put on the outputs queue only
// after the run's final status is recorded (O01). A failure here never fails the run's
// bookkeeping: the outputs are held for an owner instead.
import {
  checkRunOutputs,
  eventHoldsOfRun,
  grantedOutputsOfRun,
  holdOutputs,
  UNCHECKED_REASON,
  type CheckedOutput,
  type ReviewModelCall,
} from "@secondshift/outputs";
import type { FinalStatus } from "@secondshift/run-lifecycle";
import type { RunContext } from "./run-context.ts";

/** `review`: the threat review's model call (made only when the plan's outputs ask for it). */
export async function checkOutputs(
  ctx: RunContext,
  status: FinalStatus,
  review?: ReviewModelCall,
): Promise<CheckedOutput[]> {
  const { db, masker, outputChecks } = ctx.deps;
  try {
    const granted = await grantedOutputsOfRun(db, ctx.scope);
    const holds = await eventHoldsOfRun(db, ctx.scope);
    const run = { ...ctx.scope, succeeded: status === "SUCCEEDED", status, holds };
    const deps = { db, known: masker, ...(outputChecks ? { config: outputChecks } : {}) };
    return await checkRunOutputs({ ...deps, ...(review ? { review } : {}) }, run, granted);
  } catch (error) {
    ctx.log.error({ err: error }, "checking the run's outputs failed; they are held");
    await holdOutputs(db, ctx.scope, ["PROPOSED"], UNCHECKED_REASON).catch((e: unknown) =>
      ctx.log.error({ err: e }, "holding the run's unchecked outputs failed"),
    );
    return [];
  }
}

/** After finishRun: READY outputs go on the queue, unless the recorded end was not a success. */
export async function enqueueReadyOutputs(
  ctx: RunContext,
  checked: CheckedOutput[],
  recordedStatus: string,
): Promise<void> {
  const ready = checked.filter((o) => o.state === "READY");
  if (ready.length === 0) return;
  if (recordedStatus !== "SUCCEEDED") {
    // The run was ended elsewhere meanwhile (revoked, cancelled): nothing applies on its own.
    const reason = `Held: the run ended ${recordedStatus.toLowerCase()}, so an owner must approve this before it is applied.`;
    await holdOutputs(ctx.deps.db, ctx.scope, ["READY"], reason).catch((e: unknown) =>
      ctx.log.error({ err: e }, "holding the run's ready outputs failed"),
    );
    return;
  }
  for (const output of ready)
    await ctx.deps
      .enqueueOutputApply?.({ outputId: output.id, workspaceId: ctx.run.workspaceId })
      .catch((e: unknown) =>
        ctx.log.error({ err: e, outputId: output.id }, "enqueueing an output failed"),
      );
}

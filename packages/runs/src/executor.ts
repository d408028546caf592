// Executes one claimed run (status RUNNING, set by the run queue) in three named steps over one
// RunContext: prepareRun (model, token, frozen plan, repository in a sandbox) → runAgentLoop
// (agent, diff) → finalizeRun (revoke, destroy, release, record, report). finalizeRun runs
// whatever step failed, and a failure names its step.
import { runAgentLoop } from "./executor/agent-loop.ts";
import {
  finalizeRun,
  reportFailure,
  type ExecuteRunResult,
  type StepsOutcome,
} from "./executor/finalize.ts";
import { prepareRun } from "./executor/prepare.ts";
import { openRunContext, type ExecutorDeps, type RunContext } from "./executor/run-context.ts";
import { reviewModel } from "./executor/threat-review.ts";

export type { ExecuteRunResult };

export async function executeRun(deps: ExecutorDeps, runId: string): Promise<ExecuteRunResult> {
  // The run's secrets (token, credentials the broker opens for it) are masked on every line the
  // worker writes while it executes, and leave the masker when it ends (P02).
  const runSecrets = deps.masker.scope(runId);
  try {
    const ctx = await openRunContext({ ...deps, masker: runSecrets }, runId);
    if ("notRunning" in ctx) return { status: ctx.notRunning, error: "not a running run" };
    return await finalizeRun(ctx, await runSteps(ctx));
  } finally {
    runSecrets.close();
  }
}

async function runSteps(ctx: RunContext): Promise<StepsOutcome> {
  // Kept for finalize's threat review even when the agent loop fails after preparing.
  let model: StepsOutcome["model"];
  try {
    const prepared = await prepareRun(ctx);
    model = reviewModel(ctx, prepared);
    return { ...(await runAgentLoop(ctx, prepared)), model };
  } catch (error) {
    return { diff: null, failure: await reportFailure(ctx, error), ...(model ? { model } : {}) };
  }
}

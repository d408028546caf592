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

export type { ExecuteRunResult };

export async function executeRun(deps: ExecutorDeps, runId: string): Promise<ExecuteRunResult> {
  const ctx = await openRunContext(deps, runId);
  if ("notRunning" in ctx) return { status: ctx.notRunning, error: "not a running run" };
  return finalizeRun(ctx, await runSteps(ctx));
}

async function runSteps(ctx: RunContext): Promise<StepsOutcome> {
  try {
    const prepared = await prepareRun(ctx);
    return await runAgentLoop(ctx, prepared);
  } catch (error) {
    return { diff: null, failure: await reportFailure(ctx, error) };
  }
}

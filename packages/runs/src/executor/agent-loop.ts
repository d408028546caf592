// Step 2: the agent loop in the prepared sandbox, stopped by the run's abort signal (cancel,
// external stop) which also reaches every command the loop runs there. Then the diff.
import { runAgent as defaultRunAgent, type AgentResult, type BrokerPort } from "@secondshift/agent";
import { captureDiff } from "../workspace-diff.ts";
import type { PreparedRun } from "./prepare.ts";
import type { RunContext } from "./run-context.ts";
import { STEP, step } from "./steps.ts";

export interface AgentOutput {
  result: AgentResult;
  diff: string | null;
}

export async function runAgentLoop(ctx: RunContext, prepared: PreparedRun): Promise<AgentOutput> {
  const { run, deps } = ctx;
  const result = await step(STEP.agent, () =>
    (deps.runAgent ?? defaultRunAgent)({
      model: {
        provider: prepared.providerKind,
        baseUrl: deps.gatewayUrl,
        runToken: prepared.token,
        model: prepared.model,
      },
      prompt: run.job.prompt,
      sandbox: prepared.sandbox,
      broker: brokerFor(ctx, prepared),
      plan: prepared.plan.tools.map((t) => ({ ...t })),
      events: ctx.events,
      limits: {
        maxTurns: run.job.maxTurns,
        deadline: ctx.deadline,
        signal: ctx.watch.signal,
        maxToolResultChars: ctx.limits.maxToolResultChars,
      },
      masker: deps.masker,
    }),
  );
  const diff = prepared.canDiff
    ? await captureDiff(prepared.sandbox, ctx.limits.maxDiffBytes, prepared.diffBase).catch(
        () => null,
      )
    : null;
  return { result, diff };
}

/**
 * The loop names a tool by its connection's tool name and connection id; the broker by its plan
 * name (which differs when two connections offer the same tool).
 */
function brokerFor(ctx: RunContext, prepared: PreparedRun): BrokerPort {
  const { run } = ctx;
  const brokerRun = {
    id: run.id,
    workspaceId: run.workspaceId,
    jobId: run.jobId,
    repositoryFullName: run.job.repository.fullName,
  };
  return {
    call: (toolName, args, context) => {
      const entry = prepared.plan.tools.find(
        (t) => t.tool === toolName && (!context || t.connectionId === context.connectionId),
      );
      return ctx.deps.broker.call(brokerRun, entry?.name ?? toolName, args);
    },
  };
}

// Step 2: the agent loop in the prepared sandbox, stopped by the run's abort signal (cancel,
// external stop) which also reaches every command the loop runs there. Then the diff.
import { runAgent as defaultRunAgent, type AgentResult, type BrokerPort } from "@secondshift/agent";
import { isAppError } from "@secondshift/errors";
import { attachPullRequestChanges, workspaceDiff } from "@secondshift/outputs";
import { checkWorkspaceFiles } from "@secondshift/sandbox";
import { captureDiff } from "../workspace-diff.ts";
import { eventRunPrompt } from "./event-prompt.ts";
import type { PreparedRun } from "./prepare.ts";
import type { LoadedRun, RunContext } from "./run-context.ts";
import { STEP, step, StepFailed } from "./steps.ts";

export interface AgentOutput {
  result: AgentResult;
  diff: string | null;
}

export async function runAgentLoop(ctx: RunContext, prepared: PreparedRun): Promise<AgentOutput> {
  const { run, deps } = ctx;
  const result = await step(STEP.agent, async () =>
    (deps.runAgent ?? defaultRunAgent)({
      model: {
        provider: prepared.providerKind,
        baseUrl: deps.gatewayUrl,
        runToken: prepared.token,
        model: prepared.model,
      },
      prompt: promptOf(run),
      sandbox: prepared.sandbox,
      broker: brokerFor(ctx, prepared),
      plan: prepared.plan.tools.map((t) => ({ ...t })),
      platformTools: (await deps.broker.platformTools?.(brokerRun(ctx))) ?? [],
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
  const diff = await collectChanges(ctx, prepared);
  await attachPullRequest(ctx, prepared);
  return { result, diff };
}

/** The approved job's prompt; an event run's adds the event's metadata, untrusted (E02). */
function promptOf(run: LoadedRun): string {
  if (run.trigger !== "EVENT" || !run.triggerEvent) return run.job.prompt;
  const job = { key: run.job.key, prompt: run.job.prompt };
  return eventRunPrompt(
    { ...job, repositoryFullName: run.job.repository.fullName },
    run.triggerEvent,
  );
}

/** A proposed pull request takes the run's changes now, while the sandbox exists (issue #24). */
async function attachPullRequest(ctx: RunContext, prepared: PreparedRun): Promise<void> {
  const { checkout, sandbox } = prepared;
  const attached = await attachPullRequestChanges(ctx.deps.db, ctx.scope, {
    sandbox,
    base: checkout.tree?.bind(checkout),
    commit: checkout.commit,
    jobKey: ctx.run.job.key,
    defaultBranch: ctx.run.job.repository.defaultBranch,
  }).catch((error: unknown) => {
    // Finalize then refuses the proposal: its files were never attached.
    ctx.log.error({ err: error }, "attaching the run's changes to its pull request failed");
    return "failed";
  });
  if (attached !== "none")
    ctx.log.info({ event: "run.pull_request_changes", attached }, "pull request changes");
}

/**
 * The diff, once the workspace is known to be within the file cap: indexing would otherwise
 * hash every file the run made (a million small files: minutes, and more memory). Past the cap
 * the run fails naming the limit. The diff is the worker's own (workspaceDiff: the sandbox's
 * files against the run commit's tree from the worker's git), so a rewritten sandbox `.git`
 * hides nothing; only a source without that tree falls back to the sandbox's git. Any other
 * failure here (the sandbox is gone: the agent's result already says why) leaves no diff.
 */
async function collectChanges(ctx: RunContext, prepared: PreparedRun): Promise<string | null> {
  const { sandbox, checkout } = prepared;
  try {
    const count = await checkWorkspaceFiles(sandbox, ctx.limits.maxWorkspaceFiles);
    ctx.log.info({ event: "run.workspace_counted", ...count }, "workspace counted");
  } catch (error) {
    if (isAppError(error) && error.reason === "WORKSPACE_TOO_MANY_FILES")
      throw new StepFailed(STEP.changes, error);
    ctx.log.warn({ err: error }, "could not count the workspace; no diff");
    return null;
  }
  const maxBytes = ctx.limits.maxDiffBytes;
  if (checkout.tree)
    return checkout
      .tree()
      .then((base) => workspaceDiff(sandbox, base, { maxBytes, timeoutMs: DIFF_TIMEOUT_MS }))
      .catch(() => null);
  if (!prepared.canDiff) return null;
  return captureDiff(sandbox, maxBytes, prepared.diffBase).catch(() => null);
}

const DIFF_TIMEOUT_MS = 120_000;

function brokerRun(ctx: RunContext) {
  const { run } = ctx;
  return {
    id: run.id,
    workspaceId: run.workspaceId,
    jobId: run.jobId,
    repositoryFullName: run.job.repository.fullName,
  };
}

/**
 * The loop names a tool by its connection's tool name and connection id; the broker by its plan
 * name (which differs when two connections offer the same tool). A call without a connection is
 * a platform tool's, by its exact name.
 */
function brokerFor(ctx: RunContext, prepared: PreparedRun): BrokerPort {
  const run = brokerRun(ctx);
  return {
    call: (toolName, args, context) => {
      if (!context) return ctx.deps.broker.call(run, toolName, args);
      const entry = prepared.plan.tools.find(
        (t) => t.tool === toolName && t.connectionId === context.connectionId,
      );
      return ctx.deps.broker.call(run, entry?.name ?? toolName, args);
    },
  };
}

// Executes one claimed run (status RUNNING, set by the run queue): token → frozen plan →
// repository at the commit → sandbox → agent loop → result. Whatever ends the run, the finally
// block revokes the token, destroys the sandbox, records the result and enqueues the reports.
import { runAgent as defaultRunAgent, type AgentResult } from "@secondshift/agent";
import type { Db, RunStatus } from "@secondshift/db";
import type { SecretMasker } from "@secondshift/logging";
import { RunEventStore } from "./event-store.ts";
import { finishRun } from "./finish.ts";
import { statusFor } from "./outcome.ts";
import {
  defaultLimits,
  type RunExecutorDeps,
  type RunSandbox,
  type SourceCheckout,
} from "./ports.ts";
import { issueRunToken, revokeRunTokens } from "./run-token.ts";
import { sandboxPort } from "./sandbox-port.ts";
import { watchRun } from "./stop-watch.ts";
import { captureDiff, snapshotWorkspace } from "./workspace-diff.ts";

export interface ExecuteRunResult {
  status: RunStatus;
  error?: string;
}

async function loadRun(db: Db, runId: string) {
  return db.run.findUnique({
    where: { id: runId },
    include: { job: { include: { repository: true } }, modelProvider: true },
  });
}

async function pickProvider(db: Db, run: { workspaceId: string; modelProviderId: string | null }) {
  if (run.modelProviderId)
    return db.modelProvider.findFirst({
      where: { id: run.modelProviderId, workspaceId: run.workspaceId },
    });
  return db.modelProvider.findFirst({
    where: { workspaceId: run.workspaceId },
    orderBy: [{ isDefault: "desc" }, { createdAt: "asc" }],
  });
}

export async function executeRun(
  deps: RunExecutorDeps & { masker: SecretMasker },
  runId: string,
): Promise<ExecuteRunResult> {
  // The run's secrets (token, credentials the broker opens for it) are masked on every line the
  // worker writes while it executes, and leave the masker when it ends (P02).
  const runSecrets = deps.masker.scope(runId);
  try {
    return await executeInScope({ ...deps, masker: runSecrets }, runId);
  } finally {
    runSecrets.close();
  }
}

async function executeInScope(
  deps: RunExecutorDeps & { masker: SecretMasker },
  runId: string,
): Promise<ExecuteRunResult> {
  const { db, logger, masker } = deps;
  const limits = { ...defaultLimits, ...deps.limits };
  const run = await loadRun(db, runId);
  if (!run || run.status !== "RUNNING")
    return { status: run?.status ?? "FAILED", error: "not a running run" };
  const scope = { id: run.id, workspaceId: run.workspaceId };
  const log = logger.child({ runId: run.id, workspaceId: run.workspaceId });
  const events = new RunEventStore(db, scope, masker);
  const deadline = new Date(
    (run.startedAt ?? new Date()).getTime() + run.job.timeoutSeconds * 1000,
  );
  const watch = watchRun(db, scope, deps.workerId, limits);
  let sandbox: RunSandbox | undefined;
  let checkout: SourceCheckout | undefined;
  let result: AgentResult | undefined;
  let failure: string | undefined;
  let diff: string | null = null;
  // What the executor was doing, so a failure says where it happened.
  let phase = "preparing the run";

  try {
    await db.run.updateMany({
      where: { ...scope, status: "RUNNING" },
      data: { deadlineAt: deadline },
    });
    const provider = await pickProvider(db, run);
    if (!provider)
      throw new Error(
        "The workspace has no model provider. An owner must add one before jobs can run.",
      );
    const model = run.job.model ?? provider.defaultModel;
    if (!model)
      throw new Error(
        `The job names no model and the model provider "${provider.name}" has no default model.`,
      );
    await db.run.updateMany({ where: scope, data: { modelProviderId: provider.id } });

    phase = "issuing the run token";
    const token = await issueRunToken(db, scope, deadline);
    masker.add(token);
    phase = "freezing the execution plan";
    const plan = await deps.freezePlan(db, { workspaceId: run.workspaceId, runId: run.id });
    phase = "fetching the repository and starting the sandbox";
    // The checkout and the sandbox start side by side (neither needs the other); whichever
    // succeeded is cleaned up in `finally` if the other failed.
    const [checkedOut, created] = await Promise.allSettled([
      deps.source.checkout({
        workspaceId: run.workspaceId,
        repositoryId: run.job.repositoryId,
        commit: run.commitSha,
      }),
      deps.sandboxes.create({ runId: run.id, workspaceId: run.workspaceId, deadline }),
    ]);
    if (checkedOut.status === "fulfilled") checkout = checkedOut.value;
    if (created.status === "fulfilled") sandbox = created.value;
    if (checkedOut.status === "rejected") throw checkedOut.reason;
    if (created.status === "rejected") throw created.reason;
    [checkout, sandbox] = [checkedOut.value, created.value];
    await db.run.updateMany({ where: scope, data: { commitSha: checkout.commit } });
    phase = "copying the repository into the sandbox";
    await sandbox.copyInDirectory(checkout.dir);
    const canDiff = await snapshotWorkspace(sandbox);
    await events.append({
      type: "run_started",
      payload: { commit: checkout.commit, tools: plan.tools.map((t) => t.name), model },
    });
    log.info({ event: "run.started", commit: checkout.commit }, "run started");

    phase = "running the agent";
    const repositoryFullName = run.job.repository.fullName;
    const brokerRun = {
      id: run.id,
      workspaceId: run.workspaceId,
      jobId: run.jobId,
      repositoryFullName,
    };
    result = await (deps.runAgent ?? defaultRunAgent)({
      model: {
        provider: provider.kind === "ANTHROPIC" ? "anthropic" : "openai",
        baseUrl: deps.gatewayUrl,
        runToken: token,
        model,
      },
      prompt: run.job.prompt,
      sandbox: sandboxPort(sandbox),
      // The loop names a tool by its connection's name and connection id; the broker by its
      // plan name (which differs when two connections offer the same tool).
      broker: {
        call: (toolName, args, context) => {
          const entry = plan.tools.find(
            (t) => t.tool === toolName && (!context || t.connectionId === context.connectionId),
          );
          return deps.broker.call(brokerRun, entry?.name ?? toolName, args);
        },
      },
      plan: plan.tools.map((t) => ({ ...t })),
      events,
      limits: {
        maxTurns: run.job.maxTurns,
        deadline,
        signal: watch.signal,
        maxToolResultChars: limits.maxToolResultChars,
      },
      masker,
    });
    phase = "capturing the diff";
    if (canDiff) diff = await captureDiff(sandbox, limits.maxDiffBytes).catch(() => null);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The freeze-plan refusal already names the tool and is written for the owner; other
    // failures say which step failed.
    failure = masker.mask(
      phase === "freezing the execution plan"
        ? message
        : `The run failed while ${phase}: ${message}`,
    );
    log.warn({ event: "run.failed", phase, err: error }, "run failed");
    await events.append({ type: "error", payload: { message: failure } }).catch(() => undefined);
  } finally {
    watch.close();
    await revokeRunTokens(db, scope).catch((e: unknown) =>
      log.error({ err: e }, "token revocation failed"),
    );
    if (sandbox)
      await sandbox
        .destroy()
        .catch((e: unknown) => log.error({ err: e }, "sandbox destroy failed"));
    if (checkout) await checkout.cleanup().catch(() => undefined);
    // Releasing writes the broker's pending audit records; a run during which an audit write
    // failed does not succeed (the failure was logged; rows not written stay 'started').
    const auditFailed = await Promise.resolve(deps.releaseRun?.(run.id)).then(
      () => false,
      (e: unknown) => {
        log.error({ err: e }, "releasing run resources failed");
        return (e as { reason?: unknown } | null)?.reason === "AUDIT_UNAVAILABLE";
      },
    );
    if (auditFailed && !failure) {
      failure = "The run failed: writing the audit record of one of its tool calls failed.";
      await events.append({ type: "error", payload: { message: failure } }).catch(() => undefined);
    }
  }

  const stopReason = watch.reason();
  let status: RunStatus = failure ? "FAILED" : statusFor(result?.outcome ?? "failed");
  if (stopReason === "cancelled") status = "CANCELLED";
  // Ended elsewhere (gateway budget, broker revocation): the loop only saw its signal abort, so
  // its message ("cancelled") is not the reason; the status and finishRun say why.
  const agentError =
    result?.outcome === "succeeded" || stopReason === "ended_elsewhere" ? undefined : result?.error;
  const error = failure ?? (agentError ? masker.mask(agentError) : undefined);
  const recorded = await finishRun(db, scope, {
    status,
    error,
    summary: result?.summary ? masker.mask(result.summary) : undefined,
    diff: diff ? masker.mask(diff) : null,
  });
  await events
    .append({
      type: "run_finished",
      payload: { status: recorded.status, ...(recorded.error ? { error: recorded.error } : {}) },
    })
    .catch(() => undefined);
  await deps
    .enqueueReports({ workspaceId: run.workspaceId, runId: run.id })
    .catch((e: unknown) => log.error({ err: e }, "enqueueing webhook reports failed"));
  log.info({ event: "run.finished", status: recorded.status }, "run finished");
  return { status: recorded.status, ...(recorded.error ? { error: recorded.error } : {}) };
}

// Step 1: everything the agent needs before it starts: the model, the run token, the frozen plan,
// and the repository copied into a fresh sandbox. Whatever is acquired is registered as a cleanup
// at once, so finalizeRun gives it back even when a later part of this step fails.
import type { RunSandbox } from "@secondshift/sandbox";
import type { PlanFreezer, SourceCheckout } from "../ports.ts";
import { issueRunToken } from "../run-token.ts";
import { adoptHistory, snapshotWorkspace } from "../workspace-diff.ts";
import type { RunContext } from "./run-context.ts";
import { STEP, step } from "./steps.ts";

export interface PreparedRun {
  model: string;
  providerKind: "anthropic" | "openai";
  /** The run's gateway token: held by the agent loop's model client only (C28). */
  token: string;
  plan: Awaited<ReturnType<PlanFreezer>>;
  checkout: SourceCheckout;
  sandbox: RunSandbox;
  /** The workspace was committed before the agent started, so a diff can be taken at the end. */
  canDiff: boolean;
  /** What the diff is taken against: the run's commit with history, the snapshot without. */
  diffBase: string;
}

export async function prepareRun(ctx: RunContext): Promise<PreparedRun> {
  const { model, providerKind } = await step(STEP.prepare, () => chooseModel(ctx));
  const token = await step(STEP.token, () => issueToken(ctx));
  const plan = await step(STEP.plan, () =>
    ctx.deps.freezePlan(ctx.deps.db, { workspaceId: ctx.run.workspaceId, runId: ctx.run.id }),
  );
  const { checkout, sandbox } = await step(STEP.workspace, () => startWorkspace(ctx));
  const { canDiff, diffBase } = await step(STEP.copyIn, async () => {
    await sandbox.copyInArchive(await checkout.archive());
    // The history goes over the tree (its .git only); without it, a one-commit snapshot.
    // History is a help, not the run's subject: when building it fails, the snapshot stands in.
    const history = await checkout.history?.().catch((error: unknown) => {
      ctx.log.warn({ event: "run.history_skipped", err: error }, "run history skipped");
      return null;
    });
    if (history) await sandbox.copyInArchive(history);
    const committed = history ? await adoptHistory(sandbox) : await snapshotWorkspace(sandbox);
    await ctx.events.append({
      type: "run_started",
      payload: { commit: checkout.commit, tools: plan.tools.map((t) => t.name), model },
    });
    return { canDiff: committed, diffBase: history ? checkout.commit : "HEAD" };
  });
  ctx.log.info({ event: "run.started", commit: checkout.commit }, "run started");
  return { model, providerKind, token, plan, checkout, sandbox, canDiff, diffBase };
}

async function pickProvider(ctx: RunContext) {
  const { db } = ctx.deps;
  const { workspaceId, modelProviderId } = ctx.run;
  if (modelProviderId)
    return db.modelProvider.findFirst({ where: { id: modelProviderId, workspaceId } });
  return db.modelProvider.findFirst({
    where: { workspaceId },
    orderBy: [{ isDefault: "desc" }, { createdAt: "asc" }],
  });
}

async function chooseModel(ctx: RunContext): Promise<Pick<PreparedRun, "model" | "providerKind">> {
  const { db } = ctx.deps;
  await db.run.updateMany({
    where: { ...ctx.scope, status: "RUNNING" },
    data: { deadlineAt: ctx.deadline },
  });
  const provider = await pickProvider(ctx);
  if (!provider)
    throw new Error(
      "The workspace has no model provider. An owner must add one before jobs can run.",
    );
  const model = ctx.run.job.model ?? provider.defaultModel;
  if (!model)
    throw new Error(
      `The job names no model and the model provider "${provider.name}" has no default model.`,
    );
  await db.run.updateMany({ where: ctx.scope, data: { modelProviderId: provider.id } });
  return { model, providerKind: provider.kind === "ANTHROPIC" ? "anthropic" : "openai" };
}

/** The one place a run registers its secrets with the masker. */
async function issueToken(ctx: RunContext): Promise<string> {
  const token = await issueRunToken(ctx.deps.db, ctx.scope, ctx.deadline);
  ctx.deps.masker.add(token);
  return token;
}

/**
 * The checkout and the sandbox start side by side (neither needs the other); whichever
 * succeeded is registered for cleanup before the other's failure is raised.
 */
async function startWorkspace(ctx: RunContext) {
  const { run, deps, log } = ctx;
  const [checkedOut, created] = await Promise.allSettled([
    deps.source.checkout({
      runId: run.id,
      workspaceId: run.workspaceId,
      repositoryId: run.job.repositoryId,
      commit: run.commitSha,
    }),
    deps.sandboxes.create({ runId: run.id, workspaceId: run.workspaceId, deadline: ctx.deadline }),
  ]);
  if (created.status === "fulfilled") {
    const sandbox = created.value;
    ctx.cleanups.push({
      what: "sandbox",
      release: () =>
        sandbox.destroy().catch((e: unknown) => log.error({ err: e }, "sandbox destroy failed")),
    });
  }
  if (checkedOut.status === "fulfilled") {
    const checkout = checkedOut.value;
    ctx.cleanups.push({
      what: "checkout",
      release: () => checkout.cleanup().catch(() => undefined),
    });
  }
  if (checkedOut.status === "rejected") throw checkedOut.reason;
  if (created.status === "rejected") throw created.reason;
  await deps.db.run.updateMany({ where: ctx.scope, data: { commitSha: checkedOut.value.commit } });
  return { checkout: checkedOut.value, sandbox: created.value };
}

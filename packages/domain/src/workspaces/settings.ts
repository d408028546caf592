// Owner: the workspace's name, how many of its runs may run at once, the token budget of a
// run whose job declares none, and how many event-started runs an hour it takes (E04). Every
// member may read them.
import { repoConfigCaps } from "@secondshift/config";
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, type ActorContext } from "../context.ts";

export interface WorkspaceSettings {
  id: string;
  slug: string;
  name: string;
  maxConcurrentRuns: number;
  defaultTokenBudget: number;
  eventRunsPerHour: number;
}

export const MAX_CONCURRENT_RUNS_LIMIT = 50;
/** The same bounds a job's own tokenBudget has in .secondshift.yaml. */
/** Event-started runs per hour a workspace may allow; past it a matching event is dropped. */
export const EVENT_RUNS_PER_HOUR_RANGE = { min: 1, max: 10_000 } as const;
export const TOKEN_BUDGET_RANGE = { min: 1_000, max: repoConfigCaps.maxTokenBudget } as const;

export async function getWorkspace(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<WorkspaceSettings> {
  await requireRole(ctx, "read");
  const workspace = await ctx.db.workspace.findUnique({
    where: { id: ctx.workspaceId },
    select: {
      id: true,
      slug: true,
      name: true,
      maxConcurrentRuns: true,
      defaultTokenBudget: true,
      eventRunsPerHour: true,
    },
  });
  if (!workspace) throw notFound("Workspace");
  return workspace;
}

export interface UpdateWorkspaceInput {
  name?: string;
  maxConcurrentRuns?: number;
  defaultTokenBudget?: number;
  eventRunsPerHour?: number;
}

function checkEventRuns(perHour: number | undefined): void {
  const { min, max } = EVENT_RUNS_PER_HOUR_RANGE;
  if (perHour !== undefined && (!Number.isInteger(perHour) || perHour < min || perHour > max)) {
    throw new AppError(
      "BAD_REQUEST",
      `Allow between ${min} and ${max} event-started runs per hour.`,
      { reason: "EVENT_RUNS_OUT_OF_RANGE" },
    );
  }
}

function checkSettings(input: UpdateWorkspaceInput, maxBudget: number): void {
  const runs = input.maxConcurrentRuns;
  if (
    runs !== undefined &&
    (!Number.isInteger(runs) || runs < 1 || runs > MAX_CONCURRENT_RUNS_LIMIT)
  ) {
    throw new AppError(
      "BAD_REQUEST",
      `Allow between 1 and ${MAX_CONCURRENT_RUNS_LIMIT} runs at once.`,
      { reason: "CONCURRENCY_OUT_OF_RANGE" },
    );
  }
  const budget = input.defaultTokenBudget;
  if (
    budget !== undefined &&
    (!Number.isInteger(budget) || budget < TOKEN_BUDGET_RANGE.min || budget > maxBudget)
  ) {
    throw new AppError(
      "BAD_REQUEST",
      `Set a default token budget between ${TOKEN_BUDGET_RANGE.min} and ${maxBudget} (this server's maximum).`,
      { reason: "BUDGET_OUT_OF_RANGE" },
    );
  }
  checkEventRuns(input.eventRunsPerHour);
}

export async function updateWorkspace(
  ctx: ActorContext,
  input: UpdateWorkspaceInput,
): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
  // The operator's RUN_MAX_TOKEN_BUDGET, never above the absolute cap.
  checkSettings(
    input,
    Math.min(ctx.maxTokenBudget ?? TOKEN_BUDGET_RANGE.max, TOKEN_BUDGET_RANGE.max),
  );
  const name = input.name?.trim();
  if (name !== undefined && (name.length === 0 || name.length > 100)) {
    throw new AppError("BAD_REQUEST", "Name the workspace (1 to 100 characters).", {
      reason: "NAME_INVALID",
    });
  }
  await db.$transaction(async (tx) => {
    const updated = await tx.workspace.update({
      where: { id: workspaceId },
      select: { name: true },
      data: {
        ...(name === undefined ? {} : { name }),
        ...(input.maxConcurrentRuns === undefined
          ? {}
          : { maxConcurrentRuns: input.maxConcurrentRuns }),
        ...(input.defaultTokenBudget === undefined
          ? {}
          : { defaultTokenBudget: input.defaultTokenBudget }),
        ...(input.eventRunsPerHour === undefined
          ? {}
          : { eventRunsPerHour: input.eventRunsPerHour }),
      },
    });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "workspace.updated",
      targetType: "Workspace",
      targetId: workspaceId,
      targetLabel: updated.name,
    });
  });
}

// Owner: the workspace's name and how many of its runs may run at once. Every member may read
// them.
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, type ActorContext } from "../context.ts";

export interface WorkspaceSettings {
  id: string;
  slug: string;
  name: string;
  maxConcurrentRuns: number;
}

export const MAX_CONCURRENT_RUNS_LIMIT = 50;

export async function getWorkspace(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<WorkspaceSettings> {
  await requireRole(ctx, "read");
  const workspace = await ctx.db.workspace.findUnique({
    where: { id: ctx.workspaceId },
    select: { id: true, slug: true, name: true, maxConcurrentRuns: true },
  });
  if (!workspace) throw notFound("Workspace");
  return workspace;
}

export async function updateWorkspace(
  ctx: ActorContext,
  input: { name?: string; maxConcurrentRuns?: number },
): Promise<void> {
  await requireRole(ctx, "own");
  const { db, workspaceId, actor } = ctx;
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
  const name = input.name?.trim();
  if (name !== undefined && (name.length === 0 || name.length > 100)) {
    throw new AppError("BAD_REQUEST", "Name the workspace (1 to 100 characters).", {
      reason: "NAME_INVALID",
    });
  }
  await db.$transaction(async (tx) => {
    await tx.workspace.update({
      where: { id: workspaceId },
      data: {
        ...(name === undefined ? {} : { name }),
        ...(runs === undefined ? {} : { maxConcurrentRuns: runs }),
      },
    });
    await recordAudit(tx, {
      workspaceId,
      actorType: "USER",
      actorId: actor.userId,
      action: "workspace.updated",
      targetType: "Workspace",
      targetId: workspaceId,
    });
  });
}

// A signed-in user creates a workspace and becomes its owner — if the operator's policy
// (SECONDSHIFT_WORKSPACE_CREATION, parsed by @secondshift/config) lets them. Not a use case of
// an existing workspace, so it is not in the workspace authorization matrix; the API's matrix
// and create.test.ts cover who may call it.
import type { WorkspaceCreationPolicy } from "@secondshift/config";
import { workspaceSlug } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { recordAudit } from "../audit/record.ts";
import type { Actor, ActorContext } from "../context.ts";

export type UserContext = Pick<ActorContext, "db" | "actor"> & { actor: Actor };

export interface CreatedWorkspace {
  id: string;
  slug: string;
  name: string;
}

async function checkPolicy(ctx: UserContext, policy: WorkspaceCreationPolicy): Promise<void> {
  if (policy === "anyone") return;
  if (policy === "operator-only") {
    throw new AppError(
      "FORBIDDEN",
      "On this server only the operator creates workspaces; ask them for one.",
      { reason: "WORKSPACE_CREATION_OPERATOR_ONLY" },
    );
  }
  const owned = await ctx.db.membership.count({
    where: { userId: ctx.actor.userId, role: "OWNER" },
  });
  if (owned === 0) {
    throw new AppError(
      "FORBIDDEN",
      "On this server only workspace owners create workspaces; ask an owner.",
      { reason: "WORKSPACE_CREATION_OWNERS_ONLY" },
    );
  }
}

export async function createWorkspace(
  ctx: UserContext,
  input: { name: string; policy: WorkspaceCreationPolicy },
): Promise<CreatedWorkspace> {
  await checkPolicy(ctx, input.policy);
  const name = input.name.trim();
  if (name.length === 0 || name.length > 100) {
    throw new AppError("BAD_REQUEST", "Name the workspace (1 to 100 characters).", {
      reason: "NAME_INVALID",
    });
  }
  return ctx.db.$transaction(async (tx) => {
    const workspace = await tx.workspace.create({
      data: { name, slug: workspaceSlug(name) },
      select: { id: true, slug: true, name: true },
    });
    await tx.membership.create({
      data: { workspaceId: workspace.id, userId: ctx.actor.userId, role: "OWNER" },
    });
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actorType: "USER",
      actorId: ctx.actor.userId,
      action: "workspace.created",
      targetType: "Workspace",
      targetId: workspace.id,
      targetLabel: workspace.name,
    });
    return workspace;
  });
}

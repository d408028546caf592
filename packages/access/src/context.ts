// Authorization lives inside the domain functions (not only in the web layer), so the worker,
// the web app and any future caller get the same checks. A workspace the actor is not a member
// of, and every id from another workspace, behaves as not found (P05): nothing leaks existence.
import type { Db, Prisma, Role } from "@secondshift/db";
import { AppError } from "@secondshift/errors";

export type DbClient = Db | Prisma.TransactionClient;

export interface Actor {
  userId: string;
}

export interface ActorContext {
  db: Db;
  actor: Actor;
  workspaceId: string;
}

export const readerRoles: readonly Role[] = ["OWNER", "ADMIN", "VIEWER"];
export const ownerOnly: readonly Role[] = ["OWNER"];

export function notFound(what: string): AppError {
  return new AppError("NOT_FOUND", `${what} was not found in this workspace.`, {
    reason: `${what.toUpperCase().replace(/\s+/g, "_")}_NOT_FOUND`,
  });
}

/** Loads the actor's membership and refuses unless its role is one of `roles`. */
export async function requireRole(
  ctx: ActorContext,
  roles: readonly Role[],
  action: string,
): Promise<Role> {
  const membership = await ctx.db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId: ctx.workspaceId, userId: ctx.actor.userId } },
    select: { role: true },
  });
  if (!membership) throw notFound("Workspace");
  if (!roles.includes(membership.role)) {
    throw new AppError(
      "FORBIDDEN",
      `Only a workspace ${roles.join(" or ").toLowerCase()} can ${action}; ask the workspace owner.`,
      {
        reason: "ROLE_NOT_ALLOWED",
      },
    );
  }
  return membership.role;
}

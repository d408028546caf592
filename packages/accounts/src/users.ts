// The signed-in user's own profile and workspaces (no password hash ever leaves this file).
import type { Role } from "@secondshift/db";
import type { AccountsDeps } from "./deps.ts";

export interface Me {
  id: string;
  email: string;
  name: string;
  workspaces: Array<{ id: string; slug: string; name: string; role: Role }>;
}

export async function getMe(deps: AccountsDeps, userId: string): Promise<Me> {
  const user = await deps.db.user.findUniqueOrThrow({
    where: { id: userId },
    select: {
      id: true,
      email: true,
      name: true,
      memberships: {
        select: { role: true, workspace: { select: { id: true, slug: true, name: true } } },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    workspaces: user.memberships.map((m) => ({ ...m.workspace, role: m.role })),
  };
}

/** The actor's role in a workspace, or null when not a member. */
export async function membershipRole(
  deps: AccountsDeps,
  userId: string,
  workspaceId: string,
): Promise<Role | null> {
  const membership = await deps.db.membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    select: { role: true },
  });
  return membership?.role ?? null;
}

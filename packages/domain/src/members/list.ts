// Who is in the workspace, with which role. Never a password hash or session.
import type { Role } from "@secondshift/db";
import { requireRole, type ActorContext } from "../context.ts";

export interface MemberSummary {
  userId: string;
  name: string;
  email: string;
  role: Role;
  since: Date;
}

export async function listMembers(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<MemberSummary[]> {
  await requireRole(ctx, "read");
  const rows = await ctx.db.membership.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: {
      role: true,
      createdAt: true,
      user: { select: { id: true, name: true, email: true } },
    },
    orderBy: { createdAt: "asc" },
  });
  return rows.map((m) => ({
    userId: m.user.id,
    name: m.user.name,
    email: m.user.email,
    role: m.role,
    since: m.createdAt,
  }));
}

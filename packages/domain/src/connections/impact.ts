// What deleting a connection affects: the jobs whose current grant binds it or grants one of
// its tools. The owner sees them before deleting; deleting revokes those grants, so the jobs go
// back to review instead of running with a hole in their access.
import type { Prisma } from "@secondshift/db";
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, type ActorContext, type DbClient } from "../context.ts";

export interface AffectedJob {
  jobId: string;
  key: string;
  name: string;
  repositoryId: string;
  grantId: string;
}

const bindsConnection = (workspaceId: string, connectionId: string): Prisma.GrantWhereInput => ({
  workspaceId,
  revokedAt: null,
  OR: [{ tools: { some: { connectionId } } }, { bindings: { array_contains: [{ connectionId }] } }],
});

async function affectedGrants(db: DbClient, workspaceId: string, connectionId: string) {
  return db.grant.findMany({
    where: bindsConnection(workspaceId, connectionId),
    select: {
      id: true,
      job: { select: { id: true, key: true, name: true, repositoryId: true, status: true } },
    },
    orderBy: { approvedAt: "asc" },
  });
}

export async function getConnectionImpact(
  ctx: ActorContext,
  input: { connectionId: string },
): Promise<{ jobs: AffectedJob[] }> {
  await requireRole(ctx, "read");
  const connection = await ctx.db.connection.findFirst({
    where: { id: input.connectionId, workspaceId: ctx.workspaceId, deletedAt: null },
    select: { id: true },
  });
  if (!connection) throw notFound("Connection");
  const grants = await affectedGrants(ctx.db, ctx.workspaceId, connection.id);
  return {
    jobs: grants.map((g) => ({
      jobId: g.job.id,
      key: g.job.key,
      name: g.job.name,
      repositoryId: g.job.repositoryId,
      grantId: g.id,
    })),
  };
}

/** Inside deleteConnection's transaction: revokes every active grant that uses the connection. */
export async function revokeGrantsUsing(
  tx: DbClient,
  ids: { workspaceId: string; connectionId: string; userId: string },
): Promise<void> {
  const grants = await affectedGrants(tx, ids.workspaceId, ids.connectionId);
  for (const grant of grants) {
    await tx.grant.update({
      where: { id: grant.id },
      data: { revokedAt: new Date(), revokedById: ids.userId },
    });
    if (grant.job.status === "APPROVED")
      await tx.job.update({ where: { id: grant.job.id }, data: { status: "NEEDS_APPROVAL" } });
    await recordAudit(tx, {
      workspaceId: ids.workspaceId,
      actorType: "USER",
      actorId: ids.userId,
      action: "grant.revoked",
      targetType: "Grant",
      targetId: grant.id,
      // A grant is named by its job.
      targetLabel: grant.job.name,
      connectionId: ids.connectionId,
      outcome: "connection_deleted",
    });
  }
}

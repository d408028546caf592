// "Sync now" (owners and admins, C02): queues a sync of the repository, deduplicated per
// repository by the queue.
import { recordAudit } from "../audit/record.ts";
import { notFound, requireRole, requireService, type ActorContext } from "../context.ts";

export async function syncRepositoryNow(
  ctx: ActorContext,
  input: { repositoryId: string },
): Promise<void> {
  await requireRole(ctx, "operate");
  const services = requireService(ctx, "services");
  const { db, workspaceId, actor } = ctx;
  const repository = await db.repository.findFirst({
    where: { id: input.repositoryId, workspaceId },
    select: { id: true, fullName: true },
  });
  if (!repository) throw notFound("Repository");
  // The screens poll while it is set; the sync that runs after it clears it.
  await db.repository.updateMany({
    where: { id: repository.id, workspaceId },
    data: { syncRequestedAt: new Date() },
  });
  await recordAudit(db, {
    workspaceId,
    actorType: "USER",
    actorId: actor.userId,
    action: "repository.sync_requested",
    targetType: "Repository",
    targetId: repository.id,
    targetLabel: repository.fullName,
  });
  await services.requestSync({ workspaceId, repositoryId: repository.id });
}

// Every member: how far a workspace is on its way to a first run report, counted from the rows
// themselves (never a flag the owner ticks), so the overview's getting-started checklist ticks
// itself. Counts only what is live: removed connections and jobs do not count.
import { requireRole, type ActorContext } from "../context.ts";

export interface Onboarding {
  providers: number;
  repositories: number;
  connections: number;
  /** Jobs the owner approved (their runs may start). */
  approvedJobs: number;
  /** Jobs waiting for the owner's decision. */
  jobsWaiting: number;
  webhooks: number;
  /** Run reports and test events ever queued for a webhook of this workspace. */
  deliveries: number;
}

export async function getOnboarding(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<Onboarding> {
  await requireRole(ctx, "read");
  const workspaceId = ctx.workspaceId;
  const { db } = ctx;
  const [providers, repositories, connections, approvedJobs, jobsWaiting, webhooks, deliveries] =
    await Promise.all([
      db.modelProvider.count({ where: { workspaceId } }),
      db.repository.count({ where: { workspaceId } }),
      db.connection.count({ where: { workspaceId, deletedAt: null } }),
      db.job.count({ where: { workspaceId, status: "APPROVED", removedAt: null } }),
      db.job.count({ where: { workspaceId, status: "NEEDS_APPROVAL", removedAt: null } }),
      db.webhook.count({ where: { workspaceId } }),
      db.webhookDelivery.count({ where: { workspaceId } }),
    ]);
  return {
    providers,
    repositories,
    connections,
    approvedJobs,
    jobsWaiting,
    webhooks,
    deliveries,
  };
}

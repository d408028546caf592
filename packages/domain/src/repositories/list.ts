// Repositories and their last sync, as every member may see them. No clone URL (it may carry
// an operator's path) and no webhook secret. Config errors are read into the vocabulary's one
// checked shape here, so no screen parses the stored JSON itself.
import { readConfigErrors, type RepoConfigError } from "@secondshift/vocabulary";
import { nowOf, requireRole, type ActorContext } from "../context.ts";
import { addressProblem } from "../urls.ts";

export interface RepositorySummary {
  id: string;
  fullName: string;
  defaultBranch: string;
  lastSyncedAt: Date | null;
  lastSyncedCommit: string | null;
  syncError: string | null;
  configErrors: RepoConfigError[];
  /** A sync was asked for (added, "Sync now") and has not run yet, or is running. */
  syncPending: boolean;
  /** What the outbound policy refuses about the clone URL today (host or address only, no path). */
  addressProblem: string | null;
}

/** A request older than this is lost (no worker took it): the screens stop waiting for it. */
const PENDING_FOR_MS = 15 * 60_000;

export async function listRepositories(
  ctx: ActorContext,
  _input: Record<string, never>,
): Promise<RepositorySummary[]> {
  await requireRole(ctx, "read");
  const rows = await ctx.db.repository.findMany({
    where: { workspaceId: ctx.workspaceId },
    select: {
      id: true,
      fullName: true,
      defaultBranch: true,
      lastSyncedAt: true,
      lastSyncedCommit: true,
      syncError: true,
      configErrors: true,
      cloneUrl: true,
      syncRequestedAt: true,
    },
    orderBy: { fullName: "asc" },
  });
  const now = nowOf(ctx).getTime();
  return rows.map(({ cloneUrl, syncRequestedAt, ...row }) => ({
    ...row,
    syncPending: syncRequestedAt !== null && now - syncRequestedAt.getTime() < PENDING_FOR_MS,
    configErrors: readConfigErrors(row.configErrors),
    addressProblem: addressProblem(ctx, cloneUrl, "The clone URL", "git"),
  }));
}

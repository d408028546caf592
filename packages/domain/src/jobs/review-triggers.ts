// The access review's triggers part (issue #25 item 2): the events the job asks to run on, and
// whether this repository can have events at all. Events are GitHub webhooks, so only a
// repository fetched through a GitHub connection (App or token) can; for any other the review
// says its triggers never fire. Requests only in this version: no event starts a run yet.
import { EVENTS_NOT_GITHUB_REASON, type RequestedTriggers } from "@secondshift/vocabulary";
import type { DbClient } from "../context.ts";
import { readRequestedTriggers } from "../triggers/stored.ts";

export interface ReviewTriggers {
  requested: RequestedTriggers;
  /** Whether the repository's connection is a live GitHub one, so events could reach its jobs. */
  eventsAvailable: boolean;
  /** Why they cannot (null when they can). */
  eventsUnavailableReason: string | null;
}

/** Whether the repository is fetched through a live GitHub connection of the workspace. */
export async function eventsAvailability(
  db: DbClient,
  workspaceId: string,
  repositoryId: string,
): Promise<{ available: true } | { available: false; reason: string }> {
  const repository = await db.repository.findFirst({
    where: { id: repositoryId, workspaceId },
    select: { connection: { select: { kind: true, deletedAt: true } } },
  });
  const c = repository?.connection;
  if (c && c.kind === "GITHUB" && !c.deletedAt) return { available: true };
  return { available: false, reason: EVENTS_NOT_GITHUB_REASON };
}

export async function reviewTriggers(
  db: DbClient,
  job: { workspaceId: string; repositoryId: string; requestedTriggers: unknown },
): Promise<ReviewTriggers> {
  const requested = readRequestedTriggers(job.requestedTriggers);
  const availability = await eventsAvailability(db, job.workspaceId, job.repositoryId);
  return {
    requested,
    eventsAvailable: availability.available,
    eventsUnavailableReason: availability.available ? null : availability.reason,
  };
}

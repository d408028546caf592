// Holds that follow from the event that started a run (issue #25): every output of a run whose
// event came from someone without write access waits for an owner (E03), and a pull request
// output of a run whose pull request got newer commits while it ran is held as superseded (E04:
// the newer head has its own run). A run no event started has neither.
import type { Db } from "@secondshift/db";
import {
  hasWriteAccess,
  OUTSIDER_HOLD_REASON,
  SUPERSEDED_HOLD_REASON,
} from "@secondshift/vocabulary";

export interface EventHolds {
  /** Holds every output of the run. */
  all: string | null;
  /** Holds the run's pull request output. */
  pullRequest: string | null;
}

export const NO_EVENT_HOLDS: EventHolds = { all: null, pullRequest: null };

export async function eventHoldsOfRun(
  db: Db,
  run: { id: string; workspaceId: string },
): Promise<EventHolds> {
  const event = await db.triggerEvent.findFirst({
    where: { runId: run.id, workspaceId: run.workspaceId },
    select: {
      jobId: true,
      kind: true,
      subjectNumber: true,
      headSha: true,
      receivedAt: true,
      occurredAt: true,
      actorPermission: true,
    },
  });
  if (!event) return NO_EVENT_HOLDS;
  const all = hasWriteAccess(event.actorPermission) ? null : OUTSIDER_HOLD_REASON;
  if (event.kind !== "pull_request" || event.headSha === null) return { all, pullRequest: null };
  const newer = await db.triggerEvent.count({
    where: {
      workspaceId: run.workspaceId,
      jobId: event.jobId,
      kind: "pull_request",
      subjectNumber: event.subjectNumber,
      OR: [
        { occurredAt: { gt: event.occurredAt } },
        { occurredAt: event.occurredAt, receivedAt: { gt: event.receivedAt } },
      ],
      headSha: { not: event.headSha },
      outcome: { in: ["queued", "superseded"] },
    },
  });
  return { all, pullRequest: newer > 0 ? SUPERSEDED_HOLD_REASON : null };
}

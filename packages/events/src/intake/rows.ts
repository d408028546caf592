// The TriggerEvent row of a delivery as it met one job, and the audit rows beside it.
import type { Prisma } from "@secondshift/db";
import { recordAudit } from "@secondshift/domain";
import type { TriggerEventDropReason, TriggerEventOutcome } from "@secondshift/vocabulary";
import type { Delivery } from "../deliveries/types.ts";
import type { CandidateJob } from "./candidates.ts";

type Tx = Prisma.TransactionClient;

/** The actor id of the intake's audit rows (beside domain's SYSTEM_SCHEDULER and others). */
export const SYSTEM_EVENTS = "events";

export interface EventContext {
  workspaceId: string;
  deliveryId: string;
  delivery: Delivery;
  job: CandidateJob;
  now: Date;
}

function eventColumns(c: EventContext) {
  const { delivery: d, job } = c;
  return {
    workspaceId: c.workspaceId,
    jobId: job.id,
    deliveryId: c.deliveryId,
    kind: job.match.kind,
    action: d.action,
    subjectType: d.subject.type,
    subjectNumber: d.subject.number,
    subjectTitle: d.subject.title,
    subjectUrl: d.subject.url,
    subjectAuthor: d.subject.author,
    actorLogin: d.actor.login,
    actorIsBot: d.actor.isBot,
    headSha: d.pullRequest?.headSha ?? null,
    headRef: d.pullRequest?.headRef ?? null,
    baseRef: d.pullRequest?.baseRef ?? null,
    headRepoFullName: d.pullRequest?.headRepoFullName ?? null,
    labels: d.labels,
    label: d.label,
    body: d.body,
    commentBody: d.comment?.body ?? null,
    commentUrl: d.comment?.url ?? null,
    commandText: job.match.commandText,
    dedupeKey: d.dedupeKey,
    receivedAt: c.now,
    occurredAt: d.occurredAt,
  };
}

/** Whether this job already met this event (TriggerEvent's (jobId, dedupeKey), E04). */
export async function alreadyMet(tx: Tx, c: EventContext): Promise<boolean> {
  const row = await tx.triggerEvent.findUnique({
    where: { jobId_dedupeKey: { jobId: c.job.id, dedupeKey: c.delivery.dedupeKey } },
    select: { id: true },
  });
  return row !== null;
}

export async function recordQueued(tx: Tx, c: EventContext, runId: string): Promise<void> {
  const outcome: TriggerEventOutcome = "queued";
  await tx.triggerEvent.create({ data: { ...eventColumns(c), outcome, runId } });
  await recordAudit(tx, {
    workspaceId: c.workspaceId,
    actorType: "SYSTEM",
    actorId: SYSTEM_EVENTS,
    action: "event.run_queued",
    targetType: "Run",
    targetId: runId,
    targetLabel: c.job.name,
    outcome: "queued",
  });
}

/** An event that starts no run: its row, and the audit row that points at it. */
async function recordWithoutRun(
  tx: Tx,
  c: EventContext,
  row: { outcome: TriggerEventOutcome; dropReason?: TriggerEventDropReason; detail: string | null },
  audit: { action: "event.superseded" | "event.dropped"; outcome: string },
): Promise<void> {
  const { id } = await tx.triggerEvent.create({
    data: { ...eventColumns(c), ...row },
    select: { id: true },
  });
  await recordAudit(tx, {
    workspaceId: c.workspaceId,
    actorType: "SYSTEM",
    actorId: SYSTEM_EVENTS,
    action: audit.action,
    targetType: "TriggerEvent",
    targetId: id,
    targetLabel: c.job.name,
    outcome: audit.outcome,
  });
}

/** A delivery older than the event whose run already has its pull request (E04): no run. */
export function recordSupersededOnArrival(
  tx: Tx,
  c: EventContext,
  newerRunId: string,
): Promise<void> {
  const detail = `Arrived after a newer event for this pull request, whose run ${newerRunId} covers it.`;
  return recordWithoutRun(
    tx,
    c,
    { outcome: "superseded", detail },
    { action: "event.superseded", outcome: "superseded" },
  );
}

export function recordDropped(
  tx: Tx,
  c: EventContext,
  reason: TriggerEventDropReason,
  detail: string | null,
): Promise<void> {
  return recordWithoutRun(
    tx,
    c,
    { outcome: "dropped", dropReason: reason, detail },
    { action: "event.dropped", outcome: reason },
  );
}

// Delivery state changes, each a conditional update so that concurrent workers agree on who
// sends. A worker *claims* a due delivery by bumping attemptCount from the value it read and
// pushing nextAttemptAt one lease ahead; PostgreSQL re-checks the WHERE clause on the locked
// row, so of two workers that read the same row exactly one update matches. The attempt's
// result is written only if the claim is still ours (same attemptCount, still PENDING), so a
// DELIVERED row is never reopened and never sent again. A worker that dies mid-attempt leaves
// the row PENDING with nextAttemptAt at the end of its lease: it is retried then, not lost, and
// its attempt row (written with the claim) stays in the history saying so.
import type { Db } from "@secondshift/db";
import type { AttemptOutcome } from "./send.ts";
import { nextRetryDelayMs } from "./retry-schedule.ts";

export interface DueDelivery {
  id: string;
  workspaceId: string;
  attemptCount: number;
}

export async function findDue(db: Db, now: Date, limit: number): Promise<DueDelivery[]> {
  // The one cross-workspace query: the worker serves every workspace. Each row's own
  // workspaceId scopes every query made for it afterwards.
  return db.webhookDelivery.findMany({
    where: { status: "PENDING", nextAttemptAt: { lte: now } },
    orderBy: { nextAttemptAt: "asc" },
    take: limit,
    select: { id: true, workspaceId: true, attemptCount: true },
  });
}

/** What an attempt row says until its result is recorded (the worker died mid-attempt). */
export const INTERRUPTED_ATTEMPT =
  "The worker stopped during this attempt; the report is sent again when the attempt's lease ends.";

export interface ClaimedAttempt {
  /** 1 for the first attempt. */
  number: number;
  /** The attempt's row in the history, written with the claim. */
  id: string;
}

/** Claims the delivery for one attempt; null if another worker got there first. */
export async function claim(
  db: Db,
  due: DueDelivery,
  now: Date,
  leaseMs: number,
): Promise<ClaimedAttempt | null> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.webhookDelivery.updateMany({
      where: {
        id: due.id,
        workspaceId: due.workspaceId,
        status: "PENDING",
        attemptCount: due.attemptCount,
        nextAttemptAt: { lte: now },
      },
      data: {
        attemptCount: due.attemptCount + 1,
        nextAttemptAt: new Date(now.getTime() + leaseMs),
      },
    });
    if (count !== 1) return null;
    const row = await tx.webhookDeliveryAttempt.create({
      data: {
        workspaceId: due.workspaceId,
        deliveryId: due.id,
        error: INTERRUPTED_ATTEMPT,
        durationMs: 0,
      },
      select: { id: true },
    });
    return { number: due.attemptCount + 1, id: row.id };
  });
}

export type RecordedState = "DELIVERED" | "RETRY" | "FAILED" | "LOST_CLAIM";

/** Records the attempt and moves the delivery on: DELIVERED, retry later, or FAILED. */
export async function recordAttempt(
  db: Db,
  due: DueDelivery,
  attempt: ClaimedAttempt,
  outcome: AttemptOutcome,
  now: Date,
  random: () => number,
): Promise<RecordedState> {
  const delay = outcome.delivered ? null : nextRetryDelayMs(attempt.number, random);
  const state: Exclude<RecordedState, "LOST_CLAIM"> = outcome.delivered
    ? "DELIVERED"
    : delay === null
      ? "FAILED"
      : "RETRY";
  const [, updated] = await db.$transaction([
    db.webhookDeliveryAttempt.updateMany({
      where: { id: attempt.id, workspaceId: due.workspaceId },
      data: {
        statusCode: outcome.statusCode,
        error: outcome.error,
        durationMs: outcome.durationMs,
      },
    }),
    db.webhookDelivery.updateMany({
      where: {
        id: due.id,
        workspaceId: due.workspaceId,
        status: "PENDING",
        attemptCount: attempt.number,
      },
      data: {
        status: state === "RETRY" ? "PENDING" : state,
        nextAttemptAt: delay === null ? null : new Date(now.getTime() + delay),
        lastStatusCode: outcome.statusCode,
        lastError: outcome.error,
        ...(state === "DELIVERED" ? { deliveredAt: now } : {}),
      },
    }),
  ]);
  return updated.count === 1 ? state : "LOST_CLAIM";
}

/** A delivery that cannot be attempted at all (webhook disabled or deleted): give up now. */
export async function abandon(
  db: Db,
  due: DueDelivery,
  attempt: ClaimedAttempt,
  reason: string,
): Promise<void> {
  await db.$transaction([
    db.webhookDeliveryAttempt.updateMany({
      where: { id: attempt.id, workspaceId: due.workspaceId },
      data: { error: reason },
    }),
    db.webhookDelivery.updateMany({
      where: {
        id: due.id,
        workspaceId: due.workspaceId,
        status: "PENDING",
        attemptCount: attempt.number,
      },
      data: { status: "FAILED", nextAttemptAt: null, lastError: reason },
    }),
  ]);
}

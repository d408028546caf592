// A run's transcript as a stream: the stored events after a sequence number, in order, then
// each new one as the listener says one was written, until the run's final status event. The
// database is the source of truth: every step re-reads `seq > last sent`, so a notification
// that comes twice, late or not at all (listener reconnecting) can neither duplicate nor skip
// an event. Sequence numbers of one run commit in order (each insert updates the Run row's
// counter, which serialises writers), so "seq > last sent" never jumps over a later commit.
import type { Db, Prisma, RunStatus } from "@secondshift/db";
import { isFinal } from "@secondshift/run-lifecycle";
import type { RunEventListener } from "./listener.ts";

export interface TranscriptEvent {
  seq: number;
  type: string;
  /** As stored: masked by the writer (P02). */
  payload: Prisma.JsonValue;
  createdAt: Date;
}

export interface TranscriptOptions {
  db: Db;
  listener: RunEventListener;
  run: { id: string; workspaceId: string };
  /** The last event the client has (-1: none). */
  afterSeq: number;
  signal?: AbortSignal;
  batchSize?: number;
}

const DEFAULT_BATCH = 200;

/** The status event that ends a run's transcript. */
export function isFinalStatusEvent(event: TranscriptEvent): boolean {
  const status = (event.payload as { status?: unknown } | null)?.status;
  return event.type === "status" && typeof status === "string" && isFinal(status as RunStatus);
}

/**
 * The run's status and its next events. Once the run is final, only events up to its final
 * status event (written by the same statement as the status, and the run's last status event):
 * what a writer appends after it (the executor's run_finished) is not part of the live stream.
 */
async function readAfter(options: TranscriptOptions, afterSeq: number, take: number) {
  const { db, run } = options;
  const scope = { runId: run.id, workspaceId: run.workspaceId };
  const row = await db.run.findFirst({
    where: { id: run.id, workspaceId: run.workspaceId },
    select: { status: true },
  });
  const finalSeq =
    row && isFinal(row.status)
      ? (
          await db.runEvent.findFirst({
            where: { ...scope, type: "status" },
            orderBy: { seq: "desc" },
            select: { seq: true },
          })
        )?.seq
      : undefined;
  const events = await db.runEvent.findMany({
    where: {
      ...scope,
      seq: { gt: afterSeq, ...(finalSeq === undefined ? {} : { lte: finalSeq }) },
    },
    orderBy: { seq: "asc" },
    take,
    select: { seq: true, type: true, payload: true, createdAt: true },
  });
  return { status: row?.status ?? null, events };
}

export async function* runTranscript(
  options: TranscriptOptions,
): AsyncGenerator<TranscriptEvent, void> {
  const take = options.batchSize ?? DEFAULT_BATCH;
  // Watch before the first read: a write between the read and the wait still wakes us.
  const watch = options.listener.watch(options.run.id);
  try {
    let last = options.afterSeq;
    for (;;) {
      const { status, events } = await readAfter(options, last, take);
      for (const event of events) {
        yield event;
        last = event.seq;
        if (isFinalStatusEvent(event)) return;
      }
      if (events.length === take) continue;
      // Gone, or final and everything up to its final status event sent.
      if (status === null || isFinal(status)) return;
      if (options.signal?.aborted) return;
      await watch.next(options.signal);
    }
  } finally {
    watch.close();
  }
}

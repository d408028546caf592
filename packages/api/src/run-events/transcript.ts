// A run's transcript as a stream: the stored events after a sequence number, in order, then
// each new one as the listener says one was written, until the run's final status event. The
// database is the source of truth: every step re-reads `seq > last sent`, so a notification
// that comes twice, late or not at all (listener reconnecting) can neither duplicate nor skip
// an event. Sequence numbers of one run commit in order (each insert updates the Run row's
// counter, which serialises writers), so "seq > last sent" never jumps over a later commit.
import type { Db, Prisma, RunStatus } from "@secondshift/db";
import {
  FINAL_STATUSES,
  isFinal,
  isFinalStatusEvent,
  readTranscriptEvent,
  STATUS_EVENT_TYPE,
} from "@secondshift/vocabulary";
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

interface Row {
  status: RunStatus;
  seq: number | null;
  type: string | null;
  payload: Prisma.JsonValue;
  createdAt: Date | null;
}

/**
 * The run's status and its next events, in one statement (one snapshot, one round trip: every
 * subscriber runs it at every event). Once the run is final, only events up to its final status
 * event (the run's last status event, written by the same statement as the status): what a
 * writer appends after it (the executor's run_finished) is not part of the live stream.
 */
async function readAfter(options: TranscriptOptions, afterSeq: number, take: number) {
  const { db, run } = options;
  const rows = await db.$queryRaw<Row[]>`
    SELECT r."status", e."seq", e."type", e."payload", e."createdAt"
    FROM "Run" r
    LEFT JOIN LATERAL (
      SELECT "seq", "type", "payload", "createdAt" FROM "RunEvent"
      WHERE "runId" = r."id" AND "workspaceId" = r."workspaceId" AND "seq" > ${afterSeq}
        AND (r."status"::text <> ALL(${FINAL_STATUSES as readonly string[]}::text[]) OR "seq" <= (
          SELECT max("seq") FROM "RunEvent"
          WHERE "runId" = r."id" AND "workspaceId" = r."workspaceId" AND "type" = ${STATUS_EVENT_TYPE}))
      ORDER BY "seq"
      LIMIT ${take}
    ) e ON true
    WHERE r."id" = ${run.id} AND r."workspaceId" = ${run.workspaceId}`;
  const events: TranscriptEvent[] = [];
  for (const row of rows) {
    if (row.seq === null || row.type === null || row.createdAt === null) continue;
    events.push({ seq: row.seq, type: row.type, payload: row.payload, createdAt: row.createdAt });
  }
  return { status: rows[0]?.status ?? null, events };
}

type ReadResult = Awaited<ReturnType<typeof readAfter>>;

/** Reads in flight, per listener: viewers of one run woken by one notification share a read. */
const inFlight = new WeakMap<RunEventListener, Map<string, Promise<ReadResult>>>();

/**
 * `readAfter`, shared with concurrent callers asking the same thing at the same listener
 * generation. A read shared this way started after every notification its joiner was woken
 * by (the generation would differ otherwise), so it sees those commits: sharing saves queries
 * (one per run and event instead of one per viewer) without ever hiding an event.
 */
function sharedRead(options: TranscriptOptions, afterSeq: number, take: number) {
  const { listener, run } = options;
  const reads = inFlight.get(listener) ?? new Map<string, Promise<ReadResult>>();
  inFlight.set(listener, reads);
  const key = `${run.workspaceId}:${run.id}:${listener.generation(run.id)}:${afterSeq}:${take}`;
  const existing = reads.get(key);
  if (existing) return existing;
  const read = readAfter(options, afterSeq, take).finally(() => reads.delete(key));
  reads.set(key, read);
  return read;
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
      const { status, events } = await sharedRead(options, last, take);
      for (const event of events) {
        yield event;
        last = event.seq;
        // The final status event ends the stream (read with the vocabulary's schema).
        if (isFinalStatusEvent(readTranscriptEvent(event.type, event.payload))) return;
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

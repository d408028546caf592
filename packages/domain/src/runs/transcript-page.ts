// One page of a run's stored transcript, newest first by cursor: the run page shows the latest
// events at once and asks for older ones as the reader scrolls up (a 10,000-event run is never
// read whole). Authorized exactly like getRun: a run of another workspace is NOT_FOUND (P05).
// Payloads are as stored (masked by their writer, P02) and untrusted.
import type { Prisma } from "@secondshift/db";
import { notFound, requireRole, type ActorContext } from "../context.ts";

export const TRANSCRIPT_PAGE_MAX = 500;

export interface TranscriptPageEvent {
  seq: number;
  type: string;
  payload: Prisma.JsonValue;
  createdAt: Date;
}

export interface TranscriptPage {
  /** In seq order (oldest of the page first). */
  events: TranscriptPageEvent[];
  /** Pass as `cursor` for the page before this one; null when this page holds the first event. */
  nextCursor: number | null;
}

export async function readTranscriptPage(
  ctx: ActorContext,
  input: { runId: string; cursor?: number | null; limit: number },
): Promise<TranscriptPage> {
  await requireRole(ctx, "read");
  const { db, workspaceId } = ctx;
  const run = await db.run.findFirst({
    where: { id: input.runId, workspaceId },
    select: { id: true },
  });
  if (!run) throw notFound("Run");
  const limit = Math.min(Math.max(1, Math.floor(input.limit)), TRANSCRIPT_PAGE_MAX);
  // One more than asked: whether an older page exists, without a count.
  const rows = await db.runEvent.findMany({
    where: {
      workspaceId,
      runId: run.id,
      ...(input.cursor == null ? {} : { seq: { lt: input.cursor } }),
    },
    orderBy: { seq: "desc" },
    take: limit + 1,
    select: { seq: true, type: true, payload: true, createdAt: true },
  });
  const page = rows.slice(0, limit).reverse();
  return {
    events: page,
    nextCursor: rows.length > limit && page[0] ? page[0].seq : null,
  };
}

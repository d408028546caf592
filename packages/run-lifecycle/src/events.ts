// Appends to a run's ordered transcript. The sequence number comes from the Run row's counter,
// incremented in the same statement, so the executor, the gateway and the broker can append
// (or change status, see lifecycle.ts) at the same time without two events sharing a number.
import type { Prisma } from "@secondshift/db";
import type { Queryable, RunRef } from "./lifecycle.ts";

/** Appends one event (payload already masked by the caller); returns its sequence number. */
export async function appendRunEvent(
  db: Queryable,
  run: RunRef,
  event: { type: string; payload: Prisma.InputJsonValue },
): Promise<number> {
  const rows = await db.$queryRaw<Array<{ seq: number }>>`
    WITH next AS (
      UPDATE "Run" SET "lastEventSeq" = "lastEventSeq" + 1
      WHERE "id" = ${run.id} AND "workspaceId" = ${run.workspaceId}
      RETURNING "id", "workspaceId", "lastEventSeq")
    INSERT INTO "RunEvent" ("id", "workspaceId", "runId", "seq", "type", "payload")
    SELECT gen_random_uuid()::text, "workspaceId", "id", "lastEventSeq", ${event.type}, ${JSON.stringify(event.payload)}::jsonb
    FROM next
    RETURNING "seq"`;
  const row = rows[0];
  if (!row) throw new Error(`run-lifecycle: run ${run.id} not found`);
  return row.seq;
}

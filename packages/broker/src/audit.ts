// The broker's audit trail (C29): exactly one row per call, with ids, names, outcome and
// duration — never arguments, results or credentials. The row is written ahead: a call that
// passed the plan check inserts its row as 'started' in the same statement as the access
// re-read (access-state.ts), before the connector is called, so an attempt is on record before
// it happens (a worker that dies mid-call leaves a 'started' row). After the call, one awaited
// statement writes its outcome and duration; if that fails, the call is refused with
// AUDIT_UNAVAILABLE (fail closed). A call refused before its row was written ahead gets its
// whole row from the same statement.
import { randomUUID } from "node:crypto";
import { preparedQuery, type Pool } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import { TOOL_CALL_ACTION } from "@secondshift/vocabulary";

/** A call's final audit row. Ids and names only (C29); the connection's label is read by SQL. */
export interface AuditWrite {
  /** The row's id, generated here (`auditId`). */
  id: string;
  toolName: string | null;
  connectionId: string | null;
  outcome: string;
  durationMs: number;
}

export interface RunKey {
  runId: string;
  workspaceId: string;
}

/** Outcome of a row that was written ahead and is not complete yet. */
export const STARTED = "started";

/** A time-ordered id (UUID v7, RFC 9562): 48 bits of Unix milliseconds, then random bits. */
export function auditId(): string {
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx
  const ms = Date.now().toString(16).padStart(12, "0");
  return `${ms.slice(0, 8)}-${ms.slice(8, 12)}-7${random.slice(15)}`;
}

/**
 * The connection's label as the call saw it (renamed or deleted later, the row still names it),
 * as the domain's recordAudit writes labels: one line (control and bidi / zero-width format
 * characters become spaces; PostgreSQL's regex reads the \u escapes),
 * at most TARGET_LABEL_MAX (120) characters. Owner text, read only from the run's workspace.
 */
const CONNECTION_LABEL_SQL = (workspace: string) =>
  `(SELECT CASE WHEN char_length(l.v) > 120 THEN left(l.v, 119) || '…' ELSE nullif(l.v, '') END
      FROM (SELECT btrim(regexp_replace(c."label", '[[:cntrl:]\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u2069\\uFEFF]+', ' ', 'g')) AS v
              FROM "Connection" c WHERE c."id" = w."connectionId" AND c."workspaceId" = ${workspace}) l)`;

/**
 * Both statements write rows the same way: an INSERT whose conflict on the id completes the
 * row written ahead — only a row of the same run (workspace, actor), only a tool call, only
 * while it is still 'started'. The primary key is the only access path, and a write retried
 * after a lost answer changes nothing the second time. `createdAt` is UTC, as Prisma reads the
 * column. `rows` is the FROM item with the columns below. The action is the vocabulary's
 * constant, spliced in as text: it is fixed, so the statement stays one prepared text.
 */
export function upsertSql(p: { workspace: string; run: string; rows: string }): string {
  return `INSERT INTO "AuditEvent" AS a ("id", "workspaceId", "actorType", "actorId", "action", "toolName", "connectionId", "targetLabel", "outcome", "durationMs", "createdAt")
      SELECT w."id", ${p.workspace}, 'RUN'::"ActorType", ${p.run}, '${TOOL_CALL_ACTION}', w."toolName", w."connectionId", ${CONNECTION_LABEL_SQL(p.workspace)}, w."outcome", w."durationMs", now() AT TIME ZONE 'UTC'
        FROM ${p.rows} AS w("id", "toolName", "connectionId", "outcome", "durationMs")
      ON CONFLICT ("id") DO UPDATE SET "outcome" = EXCLUDED."outcome", "durationMs" = EXCLUDED."durationMs"
       WHERE a."outcome" = '${STARTED}' AND a."workspaceId" = EXCLUDED."workspaceId"
         AND a."actorType" = 'RUN' AND a."actorId" = EXCLUDED."actorId" AND a."action" = '${TOOL_CALL_ACTION}'`;
}

const RECORD = {
  name: "secondshift_broker_record_v3",
  text: upsertSql({
    workspace: "$1",
    run: "$2",
    rows: `(VALUES ($3::text, $4::text, $5::text, $6::text, $7::int))`,
  }),
};

/** Writes a call's final row (its outcome, or the whole row of an early refusal). */
export async function recordAudit(
  pool: Pool,
  logger: Logger,
  run: RunKey,
  write: AuditWrite,
): Promise<void> {
  try {
    await preparedQuery(pool, RECORD, [
      run.workspaceId,
      run.runId,
      write.id,
      write.toolName,
      write.connectionId,
      write.outcome,
      write.durationMs,
    ]);
  } catch (error) {
    logAuditFailure(logger, run, error);
    throw error;
  }
}

/** The driver's code and message only: the error object may carry the statement's parameters. */
export function logAuditFailure(logger: Logger, run: RunKey, error: unknown): void {
  logger.error(
    {
      runId: run.runId,
      workspaceId: run.workspaceId,
      code: (error as { code?: unknown } | null)?.code,
      message: error instanceof Error ? error.message : "unknown error",
    },
    "broker audit write failed",
  );
}

// The broker's audit trail (C29): exactly one row per call, with ids, names, outcome and
// duration — never arguments, results or credentials. The row is written ahead: a call that
// passed the plan check inserts its row as 'started' in the same statement as the access
// re-read (access-state.ts), before the connector is called, so an attempt is on record before
// it happens (a worker that dies mid-call leaves a 'started' row). The call's outcome and
// duration are queued per run here and written with the run's next call statement, or on
// their own after `delayMs`, and at once on `flush` (run end, worker stop).
//
// Fail closed: a write that failed stays queued (retried by the next flush) and marks the run;
// the run's next call is refused with AUDIT_UNAVAILABLE, which fails the run, and `forget` /
// `flush` reject for a marked run.
import { randomUUID } from "node:crypto";
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";

/**
 * A node-postgres pool (or anything with its `query`): the fast path for the per-call queries.
 * They are sent as named (prepared) statements: each pooled connection parses and plans them
 * once, and every call still executes them against the database.
 */
export interface SqlPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

export interface Statement {
  name: string;
  text: string;
  values: unknown[];
}

/** Runs a statement on the pg pool (prepared) or through Prisma (same SQL text). */
export type Sql = (statement: Statement) => Promise<unknown[]>;

export function brokerSql(db: Db, pool?: SqlPool): Sql {
  if (pool) return async (statement) => (await pool.query(statement)).rows;
  return (statement) => db.$queryRawUnsafe<unknown[]>(statement.text, ...statement.values);
}

/**
 * A call's final audit row: the outcome and duration of a call whose row was written ahead as
 * 'started', or the whole row of a call refused before that. Ids and names only (C29).
 */
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
 * Both statements write rows the same way: an INSERT whose conflict on the id completes the
 * row written ahead — only a row of the same run (workspace, actor), only a tool call, only
 * while it is still 'started'. One table write per statement, the primary key as the only
 * access path (no plan choice that statistics could spoil), and idempotent: a write retried
 * after a lost answer changes nothing the second time. An outcome whose row is missing (it
 * cannot be, short of a deletion) is inserted as a whole row rather than lost. `createdAt` is
 * UTC, as Prisma reads the column. `rows` is the FROM item with the columns below.
 */
export function upsertSql(p: { workspace: string; run: string; rows: string }): string {
  return `INSERT INTO "AuditEvent" AS a ("id", "workspaceId", "actorType", "actorId", "action", "toolName", "connectionId", "outcome", "durationMs", "createdAt")
      SELECT w."id", ${p.workspace}, 'RUN'::"ActorType", ${p.run}, 'tool.call', w."toolName", w."connectionId", w."outcome", w."durationMs", now() AT TIME ZONE 'UTC'
        FROM ${p.rows} AS w("id", "toolName", "connectionId", "outcome", "durationMs")
       WHERE w."id" IS NOT NULL
      ON CONFLICT ("id") DO UPDATE SET "outcome" = EXCLUDED."outcome", "durationMs" = EXCLUDED."durationMs"
       WHERE a."outcome" = '${STARTED}' AND a."workspaceId" = EXCLUDED."workspaceId"
         AND a."actorType" = 'RUN' AND a."actorId" = EXCLUDED."actorId" AND a."action" = 'tool.call'`;
}

/** One write as five parameters (all null for none): id, tool, connection, outcome, duration. */
export function writeValues(w: AuditWrite | null): unknown[] {
  return w
    ? [w.id, w.toolName, w.connectionId, w.outcome, w.durationMs]
    : [null, null, null, null, null];
}

// A run's queued writes, as parallel arrays (node-postgres and Prisma's pg adapter both send
// JS arrays as array literals).
const RECORD_STATEMENT = "secondshift_broker_record_v1";
const RECORD_SQL = upsertSql({
  workspace: "$1",
  run: "$2",
  rows: `unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::int[])`,
});

async function record(sql: Sql, run: RunKey, writes: AuditWrite[]): Promise<void> {
  await sql({
    name: RECORD_STATEMENT,
    text: RECORD_SQL,
    values: [
      run.workspaceId,
      run.runId,
      writes.map((w) => w.id),
      writes.map((w) => w.toolName),
      writes.map((w) => w.connectionId),
      writes.map((w) => w.outcome),
      writes.map((w) => w.durationMs),
    ],
  });
}

const asError = (value: unknown): Error =>
  value instanceof Error ? value : new Error("audit write failed");

interface RunAudit {
  run: RunKey;
  pending: AuditWrite[];
  timer: NodeJS.Timeout | undefined;
  /** Statements in flight that carry some of this run's writes. */
  writing: Set<Promise<unknown>>;
  /** The first audit write of this run that failed; kept until the run is forgotten. */
  failure: unknown;
}

/** The runs' queued audit writes (one queue per broker). */
export class AuditQueue {
  private readonly runs = new Map<string, RunAudit>();

  constructor(
    private readonly sql: Sql,
    private readonly delayMs: number,
    private readonly logger: Logger,
  ) {}

  /** Queues a finished call's row; written with the run's next statement or after the delay. */
  add(run: RunKey, write: AuditWrite): void {
    const state = this.state(run);
    state.pending.push(write);
    state.timer ??= setTimeout(() => {
      state.timer = undefined;
      // A failure was logged and marked the run (see `write`); nothing else to do here.
      this.flush(run.runId).catch(() => undefined);
    }, this.delayMs);
  }

  /** Whether an audit write of this run failed: its next call must be refused. */
  failed(runId: string): boolean {
    return this.runs.get(runId)?.failure !== undefined;
  }

  /**
   * Runs a statement that writes the run's oldest queued row (handed to `statement`, null if
   * none) along with its own work; any others wait for their timer or the next statement. If
   * it fails, the row goes back to the queue and the run is marked.
   */
  carry<T>(run: RunKey, statement: (write: AuditWrite | null) => Promise<T>): Promise<T> {
    return this.write(this.state(run), 1, (writes) => statement(writes[0] ?? null));
  }

  /** Writes a row now (a refused call), with the run's queued ones. Rejects if that fails. */
  async record(run: RunKey, write: AuditWrite): Promise<void> {
    this.state(run).pending.push(write);
    await this.flush(run.runId);
  }

  /**
   * Writes the run's queued rows now, after any statement already carrying some of them.
   * Rejects if the write fails; whatever was not written stays queued.
   */
  async flush(runId: string): Promise<void> {
    for (;;) {
      const state = this.runs.get(runId);
      if (!state) return;
      if (state.writing.size > 0) {
        await Promise.allSettled([...state.writing]);
        continue;
      }
      if (state.pending.length === 0) return;
      await this.write(state, Infinity, (writes) => record(this.sql, state.run, writes));
    }
  }

  /**
   * Writes the run's queued rows and drops its state. Rejects if any audit write of the run
   * failed, even one a later retry made good: the failure was logged when it happened, and
   * rows that could not be written stay 'started' (or missing, for a call refused before its
   * row was written ahead).
   */
  async forget(runId: string): Promise<void> {
    try {
      await this.flush(runId);
      const failure: unknown = this.runs.get(runId)?.failure;
      if (failure !== undefined) throw asError(failure);
    } finally {
      const state = this.runs.get(runId);
      if (state?.timer) clearTimeout(state.timer);
      this.runs.delete(runId);
    }
  }

  /** Flushes every run; rejects (after trying all) if any run's audit write ever failed. */
  async flushAll(): Promise<void> {
    const results = await Promise.allSettled([...this.runs.keys()].map((id) => this.flush(id)));
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    const marked = [...this.runs.values()].find((s) => s.failure !== undefined);
    if (marked) throw asError(marked.failure);
  }

  private async write<T>(
    state: RunAudit,
    count: number,
    statement: (writes: AuditWrite[]) => Promise<T>,
  ): Promise<T> {
    const writes = state.pending.splice(0, count);
    if (state.pending.length === 0 && state.timer) {
      clearTimeout(state.timer);
      state.timer = undefined;
    }
    const written = statement(writes);
    state.writing.add(written);
    try {
      return await written;
    } catch (error) {
      state.pending.unshift(...writes);
      state.failure ??= error;
      this.logger.error(
        {
          runId: state.run.runId,
          workspaceId: state.run.workspaceId,
          rows: writes.length,
          // The driver's code and message only: the error object may carry the parameters.
          code: (error as { code?: unknown } | null)?.code,
          message: error instanceof Error ? error.message : "unknown error",
        },
        "broker audit write failed",
      );
      throw error;
    } finally {
      state.writing.delete(written);
      this.release(state);
    }
  }

  private state(run: RunKey): RunAudit {
    let state = this.runs.get(run.runId);
    if (!state) {
      state = {
        run: { runId: run.runId, workspaceId: run.workspaceId },
        pending: [],
        timer: undefined,
        writing: new Set(),
        failure: undefined,
      };
      this.runs.set(run.runId, state);
    }
    return state;
  }

  /** Drops a run's state once nothing is queued, in flight or failed. */
  private release(state: RunAudit): void {
    if (
      state.pending.length === 0 &&
      state.writing.size === 0 &&
      state.failure === undefined &&
      state.timer === undefined &&
      this.runs.get(state.run.runId) === state
    )
      this.runs.delete(state.run.runId);
  }
}

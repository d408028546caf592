// The only code that changes Run.status (a test enforces it: status-writes.test.ts). Each
// function is one conditional UPDATE from the states its row of TRANSITIONS allows, and the
// same statement appends the matching "status" run event: a transition that did not happen
// (already done, or not allowed from the current state) writes nothing and returns false.
import { Prisma, type Db, type RunStatus } from "@secondshift/db";
import { TRANSITIONS, type FinalStatus, type TransitionName } from "./transitions.ts";

export type Queryable = Db | Prisma.TransactionClient;

export interface RunRef {
  id: string;
  workspaceId: string;
}

export const BUDGET_EXHAUSTED_ERROR =
  "The run used its whole model token budget. Raise the job's tokenBudget if it needs more.";
export const WORKER_LOST_ERROR = "worker lost";

interface Move {
  name: TransitionName;
  to: RunStatus;
  /** Columns written besides status, e.g. Prisma.sql`"finishedAt" = now()`. */
  set: Prisma.Sql;
  error?: string | null;
}

interface OneRunMove extends Move {
  run: RunRef;
  /** Extra conditions on the run row (e.g. the worker that owns it). */
  guard?: Prisma.Sql;
}

/**
 * The UPDATE of a move, for a CTE: only rows in one of the `from` states of the move's row of
 * TRANSITIONS change, and each takes the next event number for its status event. The states
 * are compared as the enum, not as text, so a move over many runs can use the status index.
 */
function updateStatus(m: Move, where: Prisma.Sql, returning: Prisma.Sql = Prisma.empty) {
  const { from, to } = TRANSITIONS[m.name];
  if (!(to as readonly RunStatus[]).includes(m.to)) {
    throw new Error(`run-lifecycle: ${m.name} cannot lead to ${m.to}`);
  }
  return Prisma.sql`
      UPDATE "Run" SET "status" = ${m.to}::"RunStatus", "lastEventSeq" = "lastEventSeq" + 1, ${m.set}
      WHERE "status" = ANY(${from}::text[]::"RunStatus"[]) AND ${where}
      RETURNING "id", "workspaceId", "lastEventSeq"${returning}`;
}

/** The "status" run event of every row the CTE `moved` changed. */
function insertStatusEvents(m: Move) {
  const payload = JSON.stringify({ status: m.to, transition: m.name, error: m.error ?? undefined });
  return Prisma.sql`
    INSERT INTO "RunEvent" ("id", "workspaceId", "runId", "seq", "type", "payload")
    SELECT gen_random_uuid()::text, "workspaceId", "id", "lastEventSeq", 'status', ${payload}::jsonb
    FROM moved`;
}

async function move(db: Queryable, m: OneRunMove): Promise<boolean> {
  const thisRun = Prisma.sql`"id" = ${m.run.id} AND "workspaceId" = ${m.run.workspaceId}
        ${m.guard ?? Prisma.empty}`;
  const rows = await db.$queryRaw<Array<{ runId: string }>>`
    WITH moved AS (${updateStatus(m, thisRun)})
    ${insertStatusEvents(m)}
    RETURNING "runId"`;
  return rows.length > 0;
}

/** Serialises run claims of one workspace (see claimRun). */
async function lockWorkspaceRunClaims(tx: Prisma.TransactionClient, workspaceId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('secondshift.run-claim'), hashtext(${workspaceId}))`;
}

export type ClaimResult = "claimed" | "at_limit" | "not_queued";

/**
 * QUEUED → RUNNING, only while fewer than the workspace's limit run. The count and the update
 * run under the workspace's advisory lock: under READ COMMITTED two concurrent claims would
 * otherwise both see "limit - 1" and both start.
 */
export async function claimRun(db: Db, run: RunRef, workerId: string): Promise<ClaimResult> {
  return db.$transaction(async (tx) => {
    await lockWorkspaceRunClaims(tx, run.workspaceId);
    const claimed = await move(tx, {
      run,
      name: "claim",
      to: "RUNNING",
      set: Prisma.sql`"workerId" = ${workerId}, "startedAt" = now(), "heartbeatAt" = now()`,
      guard: Prisma.sql`AND (SELECT count(*) FROM "Run" WHERE "workspaceId" = ${run.workspaceId} AND "status" = 'RUNNING')
          < (SELECT "maxConcurrentRuns" FROM "Workspace" WHERE "id" = ${run.workspaceId})`,
    });
    if (claimed) return "claimed";
    const row = await tx.run.findFirst({ where: run, select: { status: true } });
    return row?.status === "QUEUED" ? "at_limit" : "not_queued";
  });
}

/**
 * Records that `workerId` still executes the run (database clock). False when the run is no
 * longer this worker's RUNNING run (declared lost, cancelled, ended elsewhere): stop.
 */
export async function heartbeat(db: Queryable, run: RunRef, workerId: string): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE "Run" SET "heartbeatAt" = now()
    WHERE "id" = ${run.id} AND "workspaceId" = ${run.workspaceId} AND "workerId" = ${workerId} AND "status" = 'RUNNING'`;
  return updated === 1;
}

/**
 * A cancel from the owner or an admin: a queued run is CANCELLED at once; a running one gets a
 * cancel request (and an event) that its executor sees at its next stop poll. Returns the
 * status afterwards (null: no such run).
 */
export async function requestCancel(db: Queryable, run: RunRef): Promise<RunStatus | null> {
  const cancelled = await move(db, {
    run,
    name: "cancelQueued",
    to: "CANCELLED",
    set: Prisma.sql`"finishedAt" = now(), "cancelRequestedAt" = now()`,
  });
  if (!cancelled) {
    const payload = JSON.stringify({ status: "RUNNING", cancelRequested: true });
    await db.$executeRaw`
      WITH requested AS (
        UPDATE "Run" SET "cancelRequestedAt" = now(), "lastEventSeq" = "lastEventSeq" + 1
        WHERE "id" = ${run.id} AND "workspaceId" = ${run.workspaceId}
          AND "status" = 'RUNNING' AND "cancelRequestedAt" IS NULL
        RETURNING "id", "workspaceId", "lastEventSeq")
      INSERT INTO "RunEvent" ("id", "workspaceId", "runId", "seq", "type", "payload")
      SELECT gen_random_uuid()::text, "workspaceId", "id", "lastEventSeq", 'status', ${payload}::jsonb
      FROM requested`;
  }
  const row = await db.run.findFirst({ where: run, select: { status: true } });
  return row?.status ?? null;
}

/**
 * QUEUED or RUNNING → FAILED with a message for the user. With `workerId`, only while that
 * worker owns the run (the executor's own safety net).
 */
export async function failRun(
  db: Queryable,
  run: RunRef,
  error: string,
  options: { workerId?: string } = {},
): Promise<boolean> {
  return move(db, {
    run,
    name: "fail",
    to: "FAILED",
    error,
    set: Prisma.sql`"error" = ${error}, "finishedAt" = now()`,
    guard:
      options.workerId === undefined ? undefined : Prisma.sql`AND "workerId" = ${options.workerId}`,
  });
}

/** QUEUED → SUPERSEDED: a newer event for the same pull request replaces this queued run. */
export async function supersedeRun(db: Queryable, run: RunRef, error: string): Promise<boolean> {
  return move(db, {
    run,
    name: "supersede",
    to: "SUPERSEDED",
    error,
    set: Prisma.sql`"error" = ${error}, "finishedAt" = now()`,
  });
}

/**
 * QUEUED → CANCELLED before start: the worker found that the event's actor may not start this
 * job (E03). The message says who and why.
 */
export async function refuseEventActor(
  db: Queryable,
  run: RunRef,
  error: string,
): Promise<boolean> {
  return move(db, {
    run,
    name: "refuseEventActor",
    to: "CANCELLED",
    error,
    set: Prisma.sql`"error" = ${error}, "finishedAt" = now()`,
  });
}

/** The gateway: RUNNING → BUDGET_EXHAUSTED, and the run's tokens stop working at once. */
export async function exhaustBudget(db: Queryable, run: RunRef): Promise<boolean> {
  const moved = await move(db, {
    run,
    name: "exhaustBudget",
    to: "BUDGET_EXHAUSTED",
    error: BUDGET_EXHAUSTED_ERROR,
    set: Prisma.sql`"error" = ${BUDGET_EXHAUSTED_ERROR}, "finishedAt" = now()`,
  });
  if (moved) {
    await db.$executeRaw`
      UPDATE "RunToken" SET "revokedAt" = now()
      WHERE "runId" = ${run.id} AND "workspaceId" = ${run.workspaceId} AND "revokedAt" IS NULL`;
  }
  return moved;
}

/** The broker: a grant or connection the run relies on was revoked (C06). */
export async function revokeRun(db: Queryable, run: RunRef, error: string): Promise<boolean> {
  return move(db, {
    run,
    name: "revoke",
    to: "REVOKED",
    error,
    set: Prisma.sql`"error" = ${error}, "finishedAt" = now()`,
  });
}

export interface FinishInput {
  status: FinalStatus;
  error?: string | undefined;
  summary?: string | undefined;
  diff?: string | null;
}

/**
 * The executor records how the run ended: status, error, summary and diff in one statement,
 * so in one transaction of the caller's `db` (its own, or the caller's when `db` is one), and no
 * reader sees the final status without the rest of the record. If the gateway or broker
 * already ended the run (budget, revocation) that status stands; the rest of the record
 * (summary, diff, time) is filled in.
 */
export async function finishRun(
  db: Queryable,
  run: RunRef,
  input: FinishInput,
): Promise<{ status: RunStatus; error: string | null }> {
  const error =
    input.error ?? (input.status === "BUDGET_EXHAUSTED" ? BUDGET_EXHAUSTED_ERROR : null);
  // An empty diff is no diff; a missing summary or diff keeps what is stored.
  const record = Prisma.sql`"summary" = COALESCE(${input.summary ?? null}, "summary"),
      "diff" = COALESCE(${input.diff || null}, "diff")`;
  const finished = await move(db, {
    run,
    name: "finish",
    to: input.status,
    error,
    set: Prisma.sql`"error" = ${error}, "finishedAt" = now(), ${record}`,
  });
  if (finished) return { status: input.status, error };
  return completeRecord(db, run, error, record);
}

/** The record of a run that something else ended: its status and error stand. */
async function completeRecord(
  db: Queryable,
  run: RunRef,
  error: string | null,
  record: Prisma.Sql,
) {
  const rows = await db.$queryRaw<Array<{ status: RunStatus; error: string | null }>>`
    UPDATE "Run" SET
      "finishedAt" = COALESCE("finishedAt", now()),
      "error" = COALESCE("error", ${error}),
      ${record}
    WHERE "id" = ${run.id} AND "workspaceId" = ${run.workspaceId}
    RETURNING "status", "error"`;
  const row = rows[0];
  if (!row) throw new Error(`run-lifecycle: run ${run.id} not found`);
  return row;
}

export interface LostRun extends RunRef {
  jobId: string;
  workerId: string | null;
}

/**
 * Runs whose heartbeat stopped → FAILED ("worker lost"), through the table's `loseWorker` row,
 * in one statement: when two recoverers race, PostgreSQL re-checks the status on the row the
 * first one changed, so each lost run is returned exactly once. The cutoff uses the database
 * clock, like `heartbeat`.
 */
export async function failLostRuns(db: Queryable, heartbeatTimeoutMs: number): Promise<LostRun[]> {
  const lose: Move = {
    name: "loseWorker",
    to: "FAILED",
    error: WORKER_LOST_ERROR,
    set: Prisma.sql`"error" = ${WORKER_LOST_ERROR}, "finishedAt" = now()`,
  };
  const silent = Prisma.sql`COALESCE("heartbeatAt", "startedAt", "queuedAt")
          < now() - (${heartbeatTimeoutMs}::double precision * interval '1 millisecond')`;
  // The lost run's tokens stop working in the same statement that fails it: no reader sees the
  // run FAILED with a token that still opens the gateway (the caller's cleanup revokes again).
  return db.$queryRaw<LostRun[]>`
    WITH moved AS (${updateStatus(lose, silent, Prisma.sql`, "jobId", "workerId"`)}),
    events AS (${insertStatusEvents(lose)}),
    revoked AS (
      UPDATE "RunToken" t SET "revokedAt" = now() FROM moved
      WHERE t."runId" = moved."id" AND t."workspaceId" = moved."workspaceId"
        AND t."revokedAt" IS NULL)
    SELECT "id", "workspaceId", "jobId", "workerId" FROM moved`;
}

// Budget and parallelism live in PostgreSQL, in the Run row, so that any number of gateway
// instances agree (C17). Every change is one conditional UPDATE: a reservation succeeds only if
// `tokensUsed + tokensReserved + n <= budgetTokens` and `gatewayInFlight < limit` hold at the
// moment the row is written, which PostgreSQL serialises per row, so concurrent requests can
// never reserve more than the budget together.
import type { Sql } from "./sql.ts";
import type { ProviderFamily } from "./routes.ts";

/** Largest reservation we ever ask for; keeps arithmetic inside PostgreSQL's int4. */
export const MAX_RESERVATION = 1_000_000_000;

export interface Reservation {
  runId: string;
  workspaceId: string;
  /** Null when the workspace has no (default) model provider. */
  provider: {
    id: string;
    kind: ProviderFamily;
    baseUrl: string;
    apiKeyCiphertext: Uint8Array;
  } | null;
}

interface ReserveRow {
  runId: string;
  workspaceId: string;
  providerId: string | null;
  kind: string | null;
  baseUrl: string | null;
  apiKeyCiphertext: Uint8Array | null;
}

/** Finished requests of one run whose charges are not written yet (see settlements.ts). */
export interface Settlement {
  runId: string;
  workspaceId: string;
  /** Sum of their reservations, released now. */
  released: number;
  charge: Charge;
  /** How many requests; each leaves the in-flight count. */
  requests: number;
}

/** A settlement as the functions' parameters: run, workspace, released, charged, input, output, cache, requests. */
function settlementValues(s: Settlement): unknown[] {
  return [
    s.runId,
    s.workspaceId,
    s.released,
    chargeTotal(s.charge),
    s.charge.input,
    s.charge.output,
    s.charge.cache,
    s.requests,
  ];
}

const NO_SETTLEMENT: Settlement = {
  runId: "",
  workspaceId: "",
  released: 0,
  charge: { input: 0, output: 0, cache: 0 },
  requests: 0,
};

/**
 * Authenticates and reserves in one round trip (`secondshift_gateway_admit`, see its
 * migration): token (by hash, not revoked, not expired) → its run (same workspace, RUNNING,
 * under the parallel limit, budget left for `amount`) → reserve and count the request in
 * flight → the run's provider (scoped by the run's workspace). A given settlement of the same
 * run's finished requests is written first, in the same call. Null when any admission
 * condition fails; `diagnose` then says which.
 */
export async function tryReserve(
  sql: Sql,
  tokenHash: Uint8Array,
  amount: number,
  maxParallel: number,
  settlement: Settlement = NO_SETTLEMENT,
): Promise<Reservation | null> {
  const rows = await sql<ReserveRow>(
    `SELECT * FROM "secondshift_gateway_admit"($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [tokenHash, amount, maxParallel, ...settlementValues(settlement)],
  );
  const row = rows[0];
  if (!row) return null;
  const provider =
    row.providerId && row.kind && row.baseUrl && row.apiKeyCiphertext
      ? {
          id: row.providerId,
          kind: row.kind as ProviderFamily,
          baseUrl: row.baseUrl,
          apiKeyCiphertext: row.apiKeyCiphertext,
        }
      : null;
  return { runId: row.runId, workspaceId: row.workspaceId, provider };
}

export interface Diagnosis {
  runId: string;
  workspaceId: string;
  tokenUsable: boolean;
  status: string;
  budgetTokens: number;
  tokensUsed: number;
  tokensReserved: number;
  gatewayInFlight: number;
}

/** Why a reservation failed (slow path only). Null: no token with that hash. */
export async function diagnose(sql: Sql, tokenHash: Uint8Array): Promise<Diagnosis | null> {
  const rows = await sql<Diagnosis>(
    `
    SELECT r."id" AS "runId", r."workspaceId",
           (t."revokedAt" IS NULL AND t."expiresAt" > now()) AS "tokenUsable",
           r."status"::text AS "status", r."budgetTokens", r."tokensUsed", r."tokensReserved", r."gatewayInFlight"
    FROM "RunToken" t JOIN "Run" r ON r."id" = t."runId" AND r."workspaceId" = t."workspaceId"
    WHERE t."tokenHash" = $1`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export interface Charge {
  input: number;
  output: number;
  cache: number;
}

export const chargeTotal = (c: Charge): number => c.input + c.output + c.cache;

/**
 * Settles finished requests of one run (`secondshift_gateway_settle`): releases their
 * reservations, records what they used, leaves the in-flight count, and — when the run has
 * used its budget — marks it BUDGET_EXHAUSTED and revokes its tokens. Returns the run's status
 * afterwards.
 */
export async function settle(sql: Sql, settlement: Settlement): Promise<string | null> {
  const rows = await sql<{ status: string | null }>(
    `SELECT "secondshift_gateway_settle"($1, $2, $3, $4, $5, $6, $7, $8) AS "status"`,
    settlementValues(settlement),
  );
  return rows[0]?.status ?? null;
}

/** Marks a running run budget-exhausted and revokes its tokens (a request no longer fits). */
export async function exhaust(
  sql: Sql,
  run: { runId: string; workspaceId: string },
): Promise<void> {
  await sql(
    `
    WITH r AS (
      UPDATE "Run" SET "status" = 'BUDGET_EXHAUSTED'::"RunStatus"
      WHERE "id" = $1 AND "workspaceId" = $2 AND "status" = 'RUNNING'
      RETURNING "id"
    )
    UPDATE "RunToken" SET "revokedAt" = now()
    WHERE "runId" = $1 AND "workspaceId" = $2 AND "revokedAt" IS NULL`,
    [run.runId, run.workspaceId],
  );
}

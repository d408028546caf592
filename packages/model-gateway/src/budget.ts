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

/**
 * Authenticates and reserves in one round trip: token (by hash, not revoked, not expired) →
 * its run (same workspace, RUNNING, under the parallel limit, budget left for `amount`) →
 * reserve and count the request in flight → the run's provider (scoped by the run's
 * workspace). Null when any condition fails; `diagnose` then says which.
 */
export async function tryReserve(
  sql: Sql,
  tokenHash: Uint8Array,
  amount: number,
  maxParallel: number,
): Promise<Reservation | null> {
  const rows = await sql<ReserveRow>(
    `
    WITH tok AS (
      SELECT "runId", "workspaceId" FROM "RunToken"
      WHERE "tokenHash" = $1 AND "revokedAt" IS NULL AND "expiresAt" > now()
    ), run AS (
      UPDATE "Run" r
      SET "tokensReserved" = r."tokensReserved" + $2::int,
          "gatewayInFlight" = r."gatewayInFlight" + 1
      FROM tok
      WHERE r."id" = tok."runId" AND r."workspaceId" = tok."workspaceId"
        AND r."status" = 'RUNNING'
        AND r."gatewayInFlight" < $3::int
        AND r."tokensUsed"::bigint + r."tokensReserved" + $2::int <= r."budgetTokens"
      RETURNING r."id", r."workspaceId", r."modelProviderId"
    )
    SELECT run."id" AS "runId", run."workspaceId", mp."id" AS "providerId", mp."kind"::text AS "kind",
           mp."baseUrl", mp."apiKeyCiphertext"
    FROM run
    LEFT JOIN LATERAL (
      SELECT p."id", p."kind", p."baseUrl", p."apiKeyCiphertext" FROM "ModelProvider" p
      WHERE p."workspaceId" = run."workspaceId"
        AND (p."id" = run."modelProviderId" OR (run."modelProviderId" IS NULL AND p."isDefault"))
      ORDER BY p."createdAt" LIMIT 1
    ) mp ON true`,
    [tokenHash, amount, maxParallel],
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
 * Settles one request: releases its reservation, records what it used, leaves the in-flight
 * count, and — when the run has used its budget — marks it BUDGET_EXHAUSTED and revokes its
 * tokens, all in one statement. Returns the run's status afterwards.
 */
export async function settle(
  sql: Sql,
  run: { runId: string; workspaceId: string },
  reserved: number,
  charge: Charge,
): Promise<string | null> {
  const rows = await sql<{ status: string }>(
    `
    WITH r AS (
      UPDATE "Run"
      SET "tokensReserved" = GREATEST("tokensReserved" - $3::int, 0),
          "tokensUsed" = "tokensUsed" + $4::int,
          "inputTokens" = "inputTokens" + $5::int,
          "outputTokens" = "outputTokens" + $6::int,
          "cacheTokens" = "cacheTokens" + $7::int,
          "gatewayInFlight" = GREATEST("gatewayInFlight" - 1, 0),
          "status" = CASE WHEN "status" = 'RUNNING' AND "tokensUsed" + $4::int >= "budgetTokens"
                          THEN 'BUDGET_EXHAUSTED'::"RunStatus" ELSE "status" END
      WHERE "id" = $1 AND "workspaceId" = $2
      RETURNING "status"::text AS "status"
    ), revoke AS (
      UPDATE "RunToken" SET "revokedAt" = now()
      WHERE "runId" = $1 AND "workspaceId" = $2 AND "revokedAt" IS NULL
        AND EXISTS (SELECT 1 FROM r WHERE r."status" = 'BUDGET_EXHAUSTED')
    )
    SELECT "status" FROM r`,
    [
      run.runId,
      run.workspaceId,
      reserved,
      chargeTotal(charge),
      charge.input,
      charge.output,
      charge.cache,
    ],
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

// Budget and parallelism live in PostgreSQL, in the Run row, so that any number of gateway
// instances agree (C17). Every change is one conditional UPDATE: a reservation succeeds only if
// `tokensUsed + tokensReserved + n <= budgetTokens` and `gatewayInFlight < limit` hold at the
// moment the row is written, which PostgreSQL serialises per row, so concurrent requests can
// never reserve more than the budget together. The two statements of every request (admit,
// settle) are prepared on the shared pool; the slow paths go through Prisma.
import { preparedQuery, type Db, type Pool } from "@secondshift/db";
import type { ProviderFamily } from "./routes.ts";

/** Largest reservation we ever ask for; keeps arithmetic inside PostgreSQL's int4. */
export const MAX_RESERVATION = 1_000_000_000;

export interface RunRef {
  runId: string;
  workspaceId: string;
}

export interface Reservation extends RunRef {
  /** Null when the workspace has no (default) model provider. */
  provider: {
    id: string;
    kind: ProviderFamily;
    baseUrl: string;
    apiKeyCiphertext: Uint8Array;
    /** The owner's list of models runs may use; empty: any. */
    allowedModels: string[];
  } | null;
}

interface ReserveRow {
  runId: string;
  workspaceId: string;
  providerId: string | null;
  kind: string | null;
  baseUrl: string | null;
  apiKeyCiphertext: Uint8Array | null;
  allowedModels: string[] | null;
}

// Token (by hash, not revoked, not expired) → its run (same workspace, RUNNING, under the
// parallel limit, budget left for the amount) → reserve and count the request in flight → the
// run's provider (scoped by the run's workspace).
const ADMIT = {
  name: "secondshift_gateway_admit_v3",
  text: `
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
           mp."baseUrl", mp."apiKeyCiphertext", mp."allowedModels"
    FROM run
    LEFT JOIN LATERAL (
      SELECT p."id", p."kind", p."baseUrl", p."apiKeyCiphertext", p."allowedModels"
      FROM "ModelProvider" p
      WHERE p."workspaceId" = run."workspaceId"
        AND (p."id" = run."modelProviderId" OR (run."modelProviderId" IS NULL AND p."isDefault"))
      ORDER BY p."createdAt" LIMIT 1
    ) mp ON true`,
};

/**
 * Authenticates and reserves in one round trip. Null when any admission condition fails;
 * `diagnose` then says which.
 */
export async function tryReserve(
  pool: Pool,
  tokenHash: Uint8Array,
  amount: number,
  maxParallel: number,
): Promise<Reservation | null> {
  const [row] = await preparedQuery<ReserveRow>(pool, ADMIT, [tokenHash, amount, maxParallel]);
  if (!row) return null;
  const provider =
    row.providerId && row.kind && row.baseUrl && row.apiKeyCiphertext
      ? {
          id: row.providerId,
          kind: row.kind as ProviderFamily,
          baseUrl: row.baseUrl,
          apiKeyCiphertext: row.apiKeyCiphertext,
          allowedModels: row.allowedModels ?? [],
        }
      : null;
  return { runId: row.runId, workspaceId: row.workspaceId, provider };
}

export interface Diagnosis extends RunRef {
  tokenUsable: boolean;
  status: string;
  budgetTokens: number;
  tokensUsed: number;
  tokensReserved: number;
  gatewayInFlight: number;
}

/** Why a reservation failed (slow path only). Null: no token with that hash. */
export async function diagnose(db: Db, tokenHash: Uint8Array): Promise<Diagnosis | null> {
  const token = await db.runToken.findUnique({
    where: { tokenHash: new Uint8Array(tokenHash) },
    select: { workspaceId: true, revokedAt: true, expiresAt: true, run: true },
  });
  // The run must be in the token's workspace, as in the admission statement.
  if (!token || token.run.workspaceId !== token.workspaceId) return null;
  const { run } = token;
  return {
    runId: run.id,
    workspaceId: run.workspaceId,
    tokenUsable: token.revokedAt === null && token.expiresAt.getTime() > Date.now(),
    status: run.status,
    budgetTokens: run.budgetTokens,
    tokensUsed: run.tokensUsed,
    tokensReserved: run.tokensReserved,
    gatewayInFlight: run.gatewayInFlight,
  };
}

export interface Charge {
  input: number;
  output: number;
  cache: number;
}

export const chargeTotal = (c: Charge): number => c.input + c.output + c.cache;

const SETTLE = {
  name: "secondshift_gateway_settle_v2",
  text: `
    UPDATE "Run"
    SET "tokensReserved" = GREATEST("tokensReserved" - $3::int, 0),
        "tokensUsed" = "tokensUsed" + $4::int,
        "inputTokens" = "inputTokens" + $5::int,
        "outputTokens" = "outputTokens" + $6::int,
        "cacheTokens" = "cacheTokens" + $7::int,
        "gatewayInFlight" = GREATEST("gatewayInFlight" - 1, 0)
    WHERE "id" = $1 AND "workspaceId" = $2
    RETURNING "status"::text AS "status", "tokensUsed" >= "budgetTokens" AS "budgetUsed"`,
};

/**
 * Settles one finished request: releases its reservation, records what it used and leaves the
 * in-flight count. Says whether the run, still running, has now used its budget (the caller
 * then ends it through the run lifecycle: `exhaustBudget`).
 */
export async function settle(
  pool: Pool,
  run: RunRef,
  reserved: number,
  charge: Charge,
): Promise<{ budgetUsed: boolean }> {
  const [row] = await preparedQuery<{ status: string; budgetUsed: boolean }>(pool, SETTLE, [
    run.runId,
    run.workspaceId,
    reserved,
    chargeTotal(charge),
    charge.input,
    charge.output,
    charge.cache,
  ]);
  return { budgetUsed: row !== undefined && row.status === "RUNNING" && row.budgetUsed };
}

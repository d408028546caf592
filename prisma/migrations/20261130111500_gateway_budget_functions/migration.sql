-- The model gateway's budget statements as functions, so that a request's admission can also
-- settle the run's earlier, finished requests in the same round trip (two statements on the
-- same Run row, one after the other, which one SQL statement cannot do).

-- Settles finished requests of one run: releases their reservations, records what they used,
-- leaves the in-flight count, and when the run has used its budget marks it BUDGET_EXHAUSTED
-- and revokes its tokens. Returns the run's status afterwards (NULL: no such run).
CREATE FUNCTION "secondshift_gateway_settle"(
  p_run TEXT, p_workspace TEXT, p_released INTEGER, p_charge INTEGER,
  p_input INTEGER, p_output INTEGER, p_cache INTEGER, p_requests INTEGER
) RETURNS TEXT LANGUAGE plpgsql AS $$
DECLARE
  v_status TEXT;
BEGIN
  UPDATE "Run"
  SET "tokensReserved" = GREATEST("tokensReserved" - p_released, 0),
      "tokensUsed" = "tokensUsed" + p_charge,
      "inputTokens" = "inputTokens" + p_input,
      "outputTokens" = "outputTokens" + p_output,
      "cacheTokens" = "cacheTokens" + p_cache,
      "gatewayInFlight" = GREATEST("gatewayInFlight" - p_requests, 0),
      "status" = CASE WHEN "status" = 'RUNNING' AND "tokensUsed" + p_charge >= "budgetTokens"
                      THEN 'BUDGET_EXHAUSTED'::"RunStatus" ELSE "status" END
  WHERE "id" = p_run AND "workspaceId" = p_workspace
  RETURNING "status"::TEXT INTO v_status;
  IF v_status = 'BUDGET_EXHAUSTED' THEN
    UPDATE "RunToken" SET "revokedAt" = now()
    WHERE "runId" = p_run AND "workspaceId" = p_workspace AND "revokedAt" IS NULL;
  END IF;
  RETURN v_status;
END $$;

-- Admission: token (by hash, not revoked, not expired) -> its run (same workspace, RUNNING,
-- under the parallel limit, budget left for p_amount) -> reserve and count the request in
-- flight -> the run's provider (scoped by the run's workspace). When p_settle_requests > 0, the
-- given finished requests of p_settle_run are settled first, in the same call. No row: the
-- reservation did not succeed (the settlement, if any, still happened).
CREATE FUNCTION "secondshift_gateway_admit"(
  p_token_hash BYTEA, p_amount INTEGER, p_max_parallel INTEGER,
  p_settle_run TEXT, p_settle_workspace TEXT, p_released INTEGER, p_charge INTEGER,
  p_input INTEGER, p_output INTEGER, p_cache INTEGER, p_settle_requests INTEGER
) RETURNS TABLE (
  "runId" TEXT, "workspaceId" TEXT, "providerId" TEXT, "kind" TEXT, "baseUrl" TEXT,
  "apiKeyCiphertext" BYTEA
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  IF p_settle_requests > 0 THEN
    PERFORM "secondshift_gateway_settle"(p_settle_run, p_settle_workspace, p_released, p_charge,
      p_input, p_output, p_cache, p_settle_requests);
  END IF;
  RETURN QUERY
  WITH tok AS (
    SELECT t."runId", t."workspaceId" FROM "RunToken" t
    WHERE t."tokenHash" = p_token_hash AND t."revokedAt" IS NULL AND t."expiresAt" > now()
  ), run AS (
    UPDATE "Run" r
    SET "tokensReserved" = r."tokensReserved" + p_amount,
        "gatewayInFlight" = r."gatewayInFlight" + 1
    FROM tok
    WHERE r."id" = tok."runId" AND r."workspaceId" = tok."workspaceId"
      AND r."status" = 'RUNNING'
      AND r."gatewayInFlight" < p_max_parallel
      AND r."tokensUsed"::BIGINT + r."tokensReserved" + p_amount <= r."budgetTokens"
    RETURNING r."id", r."workspaceId", r."modelProviderId"
  )
  SELECT run."id", run."workspaceId", mp."id", mp."kind"::TEXT, mp."baseUrl", mp."apiKeyCiphertext"
  FROM run
  LEFT JOIN LATERAL (
    SELECT p."id", p."kind", p."baseUrl", p."apiKeyCiphertext" FROM "ModelProvider" p
    WHERE p."workspaceId" = run."workspaceId"
      AND (p."id" = run."modelProviderId" OR (run."modelProviderId" IS NULL AND p."isDefault"))
    ORDER BY p."createdAt" LIMIT 1
  ) mp ON TRUE;
END $$;

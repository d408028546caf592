-- The model gateway's budget statements are plain SQL sent from TypeScript again (admission and
-- settlement, each prepared on the gateway's pool); a run's status change on a used-up budget
-- is its own statement. The functions that let an admission carry earlier settlements go.
DROP FUNCTION IF EXISTS "secondshift_gateway_admit"(BYTEA, INTEGER, INTEGER, TEXT, TEXT, INTEGER, INTEGER, INTEGER, INTEGER, INTEGER, INTEGER);
DROP FUNCTION IF EXISTS "secondshift_gateway_settle"(TEXT, TEXT, INTEGER, INTEGER, INTEGER, INTEGER, INTEGER, INTEGER);

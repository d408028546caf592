// The per-call statement: the access re-read (C06) — run, job, grant, grant tool and
// connection, never cached, so a revocation committed a moment ago is seen by the very next
// call — and, in the same round trip, the call's audit row written ahead as 'started'
// (audit.ts).
import { preparedQuery, type Pool } from "@secondshift/db";
import { STARTED, upsertSql } from "./audit.ts";

export interface AccessState {
  runStatus: string;
  runJobId: string;
  jobHash: string;
  grantFound: boolean;
  grantRevoked: boolean;
  grantHash: string | null;
  connectionFound: boolean;
  connectionDeleted: boolean;
  allowedTools: string[];
  granted: boolean;
  connection: {
    endpoint: string;
    authType: "NONE" | "BEARER" | "HEADER" | "OAUTH" | "GITHUB_APP";
    authHeaderName: string | null;
    settings: Record<string, unknown>;
    credentialCiphertext: Uint8Array | null;
    oauthAccessTokenCiphertext: Uint8Array | null;
    oauthRefreshTokenCiphertext: Uint8Array | null;
    oauthAccessTokenExpiresAt: Date | null;
    oauthConfig: Record<string, unknown> | null;
  };
}

// The row comes back as one JSON value: node-postgres spends more per column (field
// descriptions, one parser each) than on parsing a small JSON document. Byte columns travel as
// base64, the token expiry as epoch milliseconds (the column is a UTC timestamp without time
// zone).
interface StateJson {
  runStatus: string;
  runJobId: string;
  jobHash: string;
  grantFound: boolean;
  grantRevoked: boolean;
  grantHash: string | null;
  connectionFound: boolean;
  connectionDeleted: boolean;
  allowedTools: string[] | null;
  granted: boolean;
  endpoint: string | null;
  authType: AccessState["connection"]["authType"] | null;
  authHeaderName: string | null;
  settings: Record<string, unknown> | null;
  credential: string | null;
  oauthAccessToken: string | null;
  oauthRefreshToken: string | null;
  oauthExpiresAtMs: number | null;
  oauthConfig: Record<string, unknown> | null;
}

// Every join is pinned to the run's workspace: another tenant's grant or connection id simply
// does not match. The write comes first, as a data-modifying CTE: it runs exactly once whether
// or not the select finds the run, and the select does not see it (one snapshot), so the
// checks read exactly what they read without it.
const CALL_SQL = `
    WITH written AS (
      ${upsertSql({
        workspace: "$5",
        run: "$4",
        rows: `(VALUES ($6::text, $7::text, $3::text, '${STARTED}', NULL::int))`,
      })}
    )
    SELECT json_build_object(
             'runStatus', r."status", 'runJobId', r."jobId", 'jobHash', j."requestHash",
             'grantFound', g."id" IS NOT NULL, 'grantRevoked', g."revokedAt" IS NOT NULL,
             'grantHash', g."requestHash",
             'connectionFound', c."id" IS NOT NULL, 'connectionDeleted', c."deletedAt" IS NOT NULL,
             'allowedTools', c."allowedTools",
             'granted', EXISTS (SELECT 1 FROM "GrantTool" gt WHERE gt."grantId" = g."id"
                                AND gt."connectionId" = c."id" AND gt."toolName" = $1
                                AND gt."workspaceId" = r."workspaceId"),
             'endpoint', c."endpoint", 'authType', c."authType", 'authHeaderName', c."authHeaderName",
             'settings', c."settings",
             'credential', encode(c."credentialCiphertext", 'base64'),
             'oauthAccessToken', encode(c."oauthAccessTokenCiphertext", 'base64'),
             'oauthRefreshToken', encode(c."oauthRefreshTokenCiphertext", 'base64'),
             'oauthExpiresAtMs', floor(extract(epoch FROM c."oauthAccessTokenExpiresAt") * 1000),
             'oauthConfig', c."oauthConfig") AS "state"
      FROM "Run" r
      JOIN "Job" j ON j."id" = r."jobId" AND j."workspaceId" = r."workspaceId"
      LEFT JOIN "Grant" g ON g."id" = $2 AND g."workspaceId" = r."workspaceId" AND g."jobId" = r."jobId"
      LEFT JOIN "Connection" c ON c."id" = $3 AND c."workspaceId" = r."workspaceId"
     WHERE r."id" = $4 AND r."workspaceId" = $5`;

// Planning this five-table query costs several times its execution (~0.8 ms against ~0.1 ms on
// the bench machine); a prepared statement plans it once per connection.
const CALL = { name: "secondshift_broker_call_v3", text: CALL_SQL };

export interface CallInput {
  workspaceId: string;
  runId: string;
  grantId: string;
  /** Null for a platform tool, which uses no connection. */
  connectionId: string | null;
  /** The service's tool name (what the grant lists). */
  tool: string;
  /** The row written ahead for this call: its id and the plan's tool name. */
  auditId: string;
  toolName: string;
}

/**
 * One round trip per call: writes this call's audit row as 'started' and re-reads the access
 * state (null when the run is not found).
 */
export async function openCall(pool: Pool, input: CallInput): Promise<AccessState | null> {
  const rows = await preparedQuery<{ state: StateJson }>(pool, CALL, [
    input.tool,
    input.grantId,
    input.connectionId,
    input.runId,
    input.workspaceId,
    input.auditId,
    input.toolName,
  ]);
  const row = rows[0];
  return row ? readState(row.state) : null;
}

function readState(state: StateJson): AccessState {
  const bytes = (base64: string | null) =>
    base64 === null ? null : new Uint8Array(Buffer.from(base64, "base64"));
  return {
    runStatus: state.runStatus,
    runJobId: state.runJobId,
    jobHash: state.jobHash,
    grantFound: state.grantFound,
    grantRevoked: state.grantRevoked,
    grantHash: state.grantHash,
    connectionFound: state.connectionFound,
    connectionDeleted: state.connectionDeleted,
    allowedTools: state.allowedTools ?? [],
    granted: state.granted,
    connection: {
      endpoint: state.endpoint ?? "",
      authType: state.authType ?? "NONE",
      authHeaderName: state.authHeaderName,
      settings: state.settings ?? {},
      credentialCiphertext: bytes(state.credential),
      oauthAccessTokenCiphertext: bytes(state.oauthAccessToken),
      oauthRefreshTokenCiphertext: bytes(state.oauthRefreshToken),
      oauthAccessTokenExpiresAt:
        state.oauthExpiresAtMs === null ? null : new Date(state.oauthExpiresAtMs),
      oauthConfig: state.oauthConfig,
    },
  };
}

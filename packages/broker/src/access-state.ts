// The per-call re-read (C06): run, job, grant, grant tool and connection in one SQL round trip,
// never cached, so a revocation committed a moment ago is seen by the very next call.
import type { Db } from "@secondshift/db";

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
// descriptions, one parser each) than on parsing a small JSON document, and both database
// paths (pg pool, Prisma) then read it the same way. Byte columns travel as base64, the token
// expiry as epoch milliseconds (the column is a UTC timestamp without time zone).
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

/**
 * A node-postgres pool (or anything with its `query`): the fast path for the per-call queries.
 * They are sent as named (prepared) statements: each pooled connection parses and plans them
 * once, and every call still executes them against the database.
 */
export interface SqlPool {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

// Every join is pinned to the run's workspace: another tenant's grant or connection id simply
// does not match.
const ACCESS_SQL = `
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
const ACCESS_STATEMENT = "secondshift_broker_access_v2";

export async function readAccessState(
  db: Db,
  ids: { workspaceId: string; runId: string; grantId: string; connectionId: string; tool: string },
  pool?: SqlPool,
): Promise<AccessState | null> {
  const values = [ids.tool, ids.grantId, ids.connectionId, ids.runId, ids.workspaceId];
  const rows = (
    pool
      ? (await pool.query({ name: ACCESS_STATEMENT, text: ACCESS_SQL, values })).rows
      : await db.$queryRawUnsafe<unknown[]>(ACCESS_SQL, ...values)
  ) as { state: StateJson | string }[];
  const row = rows[0];
  if (!row) return null;
  // node-postgres parses json columns; a driver that hands over the text is read the same way.
  const state = typeof row.state === "string" ? (JSON.parse(row.state) as StateJson) : row.state;
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

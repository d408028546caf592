// One refresh per expiry, across every worker: the refresh runs inside a transaction that holds
// the connection row's lock (SELECT … FOR UPDATE). A second caller — another run of the
// workspace, in this worker or another — waits on the lock, re-reads the row and finds the
// tokens the first one stored, so the OAuth server sees one refresh (C26). A refusal from the
// server (invalid_grant and the like) marks the connection reconnect-needed and drops its dead
// tokens; every later call is refused with the same clear reason until the owner reconnects.
import { decryptField, encryptField, type Keyring } from "@secondshift/crypto";
import type { Db, Prisma } from "@secondshift/db";

type Tx = Prisma.TransactionClient;
import type { SecretMasker } from "@secondshift/logging";
import { ToolCallError } from "./refusals.ts";
import type { OAuthRefresher, RefreshedTokens } from "./secrets.ts";

/** Refreshes a little before the stored expiry, so a token does not expire mid-request. */
export const EXPIRY_SKEW_MS = 30_000;
/** Lock wait + the token request; the caller's signal bounds the request itself. */
const REFRESH_TRANSACTION_MS = 60_000;

export const RECONNECT_MESSAGE =
  "The service refused to renew this connection's authorization; ask the workspace owner to reconnect it.";

export interface RefreshContext {
  db: Db;
  keyring: Keyring;
  masker: SecretMasker;
  refresher: OAuthRefresher | undefined;
  now: () => Date;
}

export interface FreshToken {
  accessToken: string;
  expiresAt: Date | null;
}

interface LockedRow {
  endpoint: string;
  oauthConfig: Record<string, unknown> | null;
  access: Uint8Array | null;
  refresh: Uint8Array | null;
  expiresAt: Date | null;
  reconnectRequiredAt: Date | null;
}

const binding = (workspaceId: string, rowId: string, field: string) => ({
  workspaceId,
  table: "Connection",
  rowId,
  field,
});

export function stillValid(expiresAt: Date | null, now: Date): boolean {
  return expiresAt === null || expiresAt.getTime() - EXPIRY_SKEW_MS > now.getTime();
}

/**
 * Returns a usable access token: the one another caller stored meanwhile, or a new one from the
 * OAuth server. `stale` is the token the caller holds (null: none); it is refreshed only when
 * the row still holds it and it is expired, or when the service rejected it (`rejected`).
 */
export async function refreshUnderLock(
  ctx: RefreshContext,
  ids: { workspaceId: string; connectionId: string },
  held: { stale: string | null; rejected: boolean },
  signal: AbortSignal,
): Promise<FreshToken> {
  const outcome = await ctx.db.$transaction(
    async (tx) => {
      const row = await lockRow(tx, ids);
      if (row.reconnectRequiredAt) return { refused: true as const };
      const open = (field: string, value: Uint8Array | null) =>
        value
          ? decryptField(ctx.keyring, value, binding(ids.workspaceId, ids.connectionId, field))
          : null;
      const current = await open("oauthAccessTokenCiphertext", row.access);
      if (current) ctx.masker.add(current);
      const replaced = current !== null && current !== held.stale;
      if (current && (replaced || (!held.rejected && stillValid(row.expiresAt, ctx.now()))))
        return { token: { accessToken: current, expiresAt: row.expiresAt } };
      const refreshToken = await open("oauthRefreshTokenCiphertext", row.refresh);
      if (!refreshToken)
        throw new ToolCallError(
          "CREDENTIAL_UNAVAILABLE",
          "The connection's access token expired and there is no refresh token; ask the owner to reconnect.",
        );
      ctx.masker.add(refreshToken);
      const fresh = await exchange(ctx, ids, row, refreshToken, signal);
      if (!fresh) {
        await markReconnectNeeded(tx, ids, ctx.now());
        return { refused: true as const };
      }
      await store(tx, ctx, ids, fresh);
      return { token: { accessToken: fresh.accessToken, expiresAt: fresh.expiresAt ?? null } };
    },
    { maxWait: REFRESH_TRANSACTION_MS, timeout: REFRESH_TRANSACTION_MS },
  );
  // Thrown after the commit, so that the reconnect-needed mark is kept.
  if ("refused" in outcome) throw new ToolCallError("RECONNECT_REQUIRED", RECONNECT_MESSAGE);
  return outcome.token;
}

async function lockRow(
  tx: Tx,
  ids: { workspaceId: string; connectionId: string },
): Promise<LockedRow> {
  const rows = await tx.$queryRaw<LockedRow[]>`
    SELECT "endpoint", "oauthConfig", "oauthAccessTokenCiphertext" AS "access",
           "oauthRefreshTokenCiphertext" AS "refresh", "oauthAccessTokenExpiresAt" AS "expiresAt",
           "reconnectRequiredAt"
      FROM "Connection"
     WHERE "id" = ${ids.connectionId} AND "workspaceId" = ${ids.workspaceId} AND "deletedAt" IS NULL
       FOR UPDATE`;
  const row = rows[0];
  if (!row)
    throw new ToolCallError(
      "CONNECTION_REMOVED",
      "The owner removed this connection; the run stops.",
    );
  return row;
}

/** The token request; null when the server refused the refresh token (reconnect needed). */
async function exchange(
  ctx: RefreshContext,
  ids: { connectionId: string },
  row: LockedRow,
  refreshToken: string,
  signal: AbortSignal,
): Promise<RefreshedTokens | null> {
  if (!ctx.refresher)
    throw new ToolCallError(
      "CREDENTIAL_UNAVAILABLE",
      "The connection's access token expired and this worker cannot refresh it; ask the owner to reconnect.",
    );
  try {
    const fresh = await ctx.refresher({
      connectionId: ids.connectionId,
      endpoint: row.endpoint,
      oauthConfig: row.oauthConfig ?? {},
      refreshToken,
      signal,
    });
    ctx.masker.add(fresh.accessToken, fresh.refreshToken);
    return fresh;
  } catch (error) {
    if (error instanceof ToolCallError && error.reason === "RECONNECT_REQUIRED") return null;
    throw error;
  }
}

async function store(
  tx: Tx,
  ctx: RefreshContext,
  ids: { workspaceId: string; connectionId: string },
  fresh: RefreshedTokens,
): Promise<void> {
  const seal = (field: string, value: string) =>
    encryptField(ctx.keyring, value, binding(ids.workspaceId, ids.connectionId, field));
  await tx.connection.updateMany({
    where: { id: ids.connectionId, workspaceId: ids.workspaceId },
    data: {
      oauthAccessTokenCiphertext: await seal("oauthAccessTokenCiphertext", fresh.accessToken),
      oauthAccessTokenExpiresAt: fresh.expiresAt ?? null,
      // A server that does not rotate refresh tokens keeps the old one valid.
      ...(fresh.refreshToken
        ? {
            oauthRefreshTokenCiphertext: await seal(
              "oauthRefreshTokenCiphertext",
              fresh.refreshToken,
            ),
          }
        : {}),
    },
  });
}

async function markReconnectNeeded(
  tx: Tx,
  ids: { workspaceId: string; connectionId: string },
  now: Date,
): Promise<void> {
  await tx.connection.updateMany({
    where: { id: ids.connectionId, workspaceId: ids.workspaceId },
    data: {
      reconnectRequiredAt: now,
      authError: RECONNECT_MESSAGE,
      oauthAccessTokenCiphertext: null,
      oauthRefreshTokenCiphertext: null,
      oauthAccessTokenExpiresAt: null,
    },
  });
}

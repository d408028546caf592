// Credentials are decrypted here, inside the broker call, after every check passed (C25), and
// registered with the masker so they are masked wherever they might be written. OAuth refresh
// tokens are used only when the access token has expired (C26); new tokens are re-encrypted
// bound to their row and field.
import type { ConnectionSecrets } from "@secondshift/connectors";
import { decryptField, encryptField, type Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import type { SecretMasker } from "@secondshift/logging";
import type { AccessState } from "./access-state.ts";
import { ToolCallError } from "./refusals.ts";

export interface RefreshedTokens {
  accessToken: string;
  refreshToken?: string | null;
  expiresAt?: Date | null;
}

/** Exchanges a refresh token; the worker passes one that goes through netguard. */
export type OAuthRefresher = (input: {
  connectionId: string;
  endpoint: string;
  oauthConfig: Record<string, unknown>;
  refreshToken: string;
  signal: AbortSignal;
}) => Promise<RefreshedTokens>;

/** Refreshes a little before the stored expiry, so a token does not expire mid-request. */
const EXPIRY_SKEW_MS = 30_000;

export interface SecretsContext {
  db: Db;
  keyring: Keyring;
  masker: SecretMasker;
  refresher: OAuthRefresher | undefined;
  now: () => Date;
}

const binding = (workspaceId: string, rowId: string, field: string) => ({
  workspaceId,
  table: "Connection",
  rowId,
  field,
});

export async function loadSecrets(
  ctx: SecretsContext,
  ids: { workspaceId: string; connectionId: string },
  c: AccessState["connection"],
  signal: AbortSignal,
): Promise<ConnectionSecrets> {
  const open = async (field: string, value: Uint8Array | null): Promise<string | null> => {
    if (!value) return null;
    const plain = await decryptField(
      ctx.keyring,
      value,
      binding(ids.workspaceId, ids.connectionId, field),
    );
    ctx.masker.add(plain);
    return plain;
  };
  const credential = await open("credentialCiphertext", c.credentialCiphertext);
  if (c.authType !== "OAUTH") return { credential };

  let accessToken = await open("oauthAccessTokenCiphertext", c.oauthAccessTokenCiphertext);
  let expiresAt = c.oauthAccessTokenExpiresAt;
  const refresh = async (): Promise<string> => {
    if (!ctx.refresher)
      throw new ToolCallError(
        "CREDENTIAL_UNAVAILABLE",
        "The connection's access token expired and this worker cannot refresh it; ask the owner to reconnect.",
      );
    const refreshToken = await open("oauthRefreshTokenCiphertext", c.oauthRefreshTokenCiphertext);
    if (!refreshToken)
      throw new ToolCallError(
        "CREDENTIAL_UNAVAILABLE",
        "The connection's access token expired and there is no refresh token; ask the owner to reconnect.",
      );
    const fresh = await ctx.refresher({
      connectionId: ids.connectionId,
      endpoint: c.endpoint,
      oauthConfig: c.oauthConfig ?? {},
      refreshToken,
      signal,
    });
    ctx.masker.add(fresh.accessToken, fresh.refreshToken);
    const seal = (field: string, value: string) =>
      encryptField(ctx.keyring, value, binding(ids.workspaceId, ids.connectionId, field));
    await ctx.db.connection.updateMany({
      where: { id: ids.connectionId, workspaceId: ids.workspaceId, deletedAt: null },
      data: {
        oauthAccessTokenCiphertext: await seal("oauthAccessTokenCiphertext", fresh.accessToken),
        oauthAccessTokenExpiresAt: fresh.expiresAt ?? null,
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
    accessToken = fresh.accessToken;
    expiresAt = fresh.expiresAt ?? null;
    return fresh.accessToken;
  };
  const expired =
    !accessToken ||
    (expiresAt !== null && expiresAt.getTime() - EXPIRY_SKEW_MS <= ctx.now().getTime());
  if (expired) await refresh();
  return {
    credential,
    oauth: {
      accessToken,
      // The connector calls this when the service rejects the token as expired; a token that
      // is still valid by its stored expiry is handed back instead of spending the refresh token.
      refresh: async () => {
        if (
          accessToken &&
          expiresAt !== null &&
          expiresAt.getTime() - EXPIRY_SKEW_MS > ctx.now().getTime()
        )
          return accessToken;
        return refresh();
      },
    },
  };
}

/** Token-endpoint refresh (RFC 6749 §6) for connections whose oauthConfig names the endpoint. */
export function tokenEndpointRefresher(fetchImpl: typeof fetch): OAuthRefresher {
  return async ({ oauthConfig, refreshToken, signal }) => {
    const tokenEndpoint = oauthConfig.tokenEndpoint;
    if (typeof tokenEndpoint !== "string")
      throw new ToolCallError(
        "CREDENTIAL_UNAVAILABLE",
        "The connection has no token endpoint to refresh with; ask the owner to reconnect.",
      );
    const body = new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken });
    if (typeof oauthConfig.clientId === "string") body.set("client_id", oauthConfig.clientId);
    if (typeof oauthConfig.resource === "string") body.set("resource", oauthConfig.resource);
    const response = await fetchImpl(tokenEndpoint, {
      method: "POST",
      body,
      headers: { accept: "application/json" },
      signal,
    });
    if (!response.ok)
      throw new ToolCallError(
        "CREDENTIAL_UNAVAILABLE",
        `Refreshing the connection's token failed (HTTP ${response.status}); ask the owner to reconnect.`,
      );
    const json = (await response.json()) as {
      access_token?: string;
      refresh_token?: string;
      expires_in?: number;
    };
    if (!json.access_token)
      throw new ToolCallError(
        "CREDENTIAL_UNAVAILABLE",
        "The token endpoint returned no access token; ask the owner to reconnect.",
      );
    return {
      accessToken: json.access_token,
      refreshToken: json.refresh_token ?? null,
      expiresAt: json.expires_in ? new Date(Date.now() + json.expires_in * 1000) : null,
    };
  };
}

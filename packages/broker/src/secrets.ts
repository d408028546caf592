// Credentials are decrypted here, inside the broker call, after every check passed (C25), and
// registered with the masker so they are masked wherever they might be written. OAuth refresh
// tokens are used only when the access token has expired (C26); new tokens are re-encrypted
// bound to their row and field.
import type { ConnectionSecrets } from "@secondshift/connectors";
import { decryptField } from "@secondshift/crypto";
import type { AccessState } from "./access-state.ts";
import {
  refreshUnderLock,
  stillValid,
  type FreshToken,
  RECONNECT_MESSAGE,
  type RefreshContext,
} from "./oauth-refresh.ts";
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

export type SecretsContext = RefreshContext;

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
  /** Receives a refusal from a refresh the connector asked for (it wraps errors in its own). */
  seen: { refusal?: ToolCallError } = {},
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

  // The refresh token is not decrypted here: only under the row lock, and only on expiry (C26).
  let token: FreshToken = {
    accessToken: (await open("oauthAccessTokenCiphertext", c.oauthAccessTokenCiphertext)) ?? "",
    expiresAt: c.oauthAccessTokenExpiresAt,
  };
  const renew = async (rejected: boolean): Promise<string> => {
    try {
      const held = { stale: token.accessToken || null, rejected };
      token = await refreshUnderLock(ctx, ids, held, signal);
      return token.accessToken;
    } catch (error) {
      if (error instanceof ToolCallError) seen.refusal = error;
      throw error;
    }
  };
  if (!token.accessToken || !stillValid(token.expiresAt, ctx.now())) await renew(false);
  return {
    credential,
    oauth: {
      accessToken: token.accessToken,
      expiresAt: token.expiresAt?.getTime() ?? null,
      // The connector calls this when the service rejects the token (401) or it expired. A token
      // that is still valid by its stored expiry, or that another run stored meanwhile, is handed
      // back instead of spending the refresh token; with no stored expiry, the 401 is believed.
      refresh: () => renew(token.expiresAt === null),
    },
  };
}

/** Token-endpoint refresh (RFC 6749 §6) for connections whose oauthConfig names the endpoint. */
export function tokenEndpointRefresher(
  fetchImpl: (input: string | URL, init?: RequestInit) => Promise<Response>,
): OAuthRefresher {
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
    // 400 / 401 (invalid_grant, invalid_client, …): the grant is gone, only the owner can fix it.
    if (response.status === 400 || response.status === 401) {
      await response.body?.cancel().catch(() => undefined);
      throw new ToolCallError("RECONNECT_REQUIRED", RECONNECT_MESSAGE);
    }
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

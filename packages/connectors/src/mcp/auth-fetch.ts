// Credentials for MCP requests are added here, per request, by wrapping the guarded fetch the
// SDK transports use. The SDK never sees a refresh token: for OAuth it sees only the current
// access token, and a refresh happens only when that token has expired (expiresAt passed) or
// the server rejects it with 401 — at most once per call ([C26]).
import type { ConnectionSecrets, ConnectionTarget } from "../types.ts";
import type { OutboundFetch } from "../shared/deps.ts";
import { connectorError } from "../shared/errors.ts";

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;
/** Refresh this long before the stated expiry, so a token does not expire in flight. */
export const EXPIRY_SKEW_MS = 30_000;
/** Upper bound for one MCP HTTP exchange (netguard `timeoutMs`), e.g. a long SSE stream. */
export const MCP_STREAM_CEILING_MS = 15 * 60_000;

/** Mutable per-session auth state; the connector hands it the secrets of each call. */
export class McpAuth {
  #secrets: ConnectionSecrets;
  #target: ConnectionTarget;
  #token: string | null = null;
  #expiresAt: number | null = null;
  #refreshedThisCall = false;
  #refreshing: Promise<string> | null = null;

  constructor(
    target: ConnectionTarget,
    secrets: ConnectionSecrets,
    private readonly now: () => number,
  ) {
    this.#target = target;
    this.#secrets = secrets;
    this.#adopt(secrets);
  }

  /** Called at the start of every call with that call's secrets. */
  beginCall(target: ConnectionTarget, secrets: ConnectionSecrets): void {
    this.#target = target;
    this.#secrets = secrets;
    this.#refreshedThisCall = false;
    this.#adopt(secrets);
  }

  #adopt(secrets: ConnectionSecrets): void {
    const oauth = secrets.oauth;
    // The broker persists every refresh, so the token it hands a call is the newest one.
    if (oauth && oauth.accessToken !== null) {
      this.#token = oauth.accessToken;
      this.#expiresAt = oauth.expiresAt ?? null;
    }
  }

  get headerName(): string | null {
    switch (this.#target.authType) {
      case "BEARER":
      case "OAUTH":
        return "authorization";
      case "HEADER":
        return (this.#target.authHeaderName ?? "").toLowerCase();
      default:
        return null;
    }
  }

  async headers(): Promise<Record<string, string>> {
    const { authType, authHeaderName } = this.#target;
    const credential = this.#secrets.credential;
    if (authType === "NONE") return {};
    if (authType === "BEARER")
      return credential ? { authorization: `Bearer ${credential}` } : this.#missing();
    if (authType === "HEADER") {
      if (!authHeaderName || !HEADER_NAME.test(authHeaderName)) {
        throw connectorError(
          "INVALID_SETTINGS",
          "The MCP connection's auth header name is not a valid header name.",
        );
      }
      return credential ? { [authHeaderName.toLowerCase()]: credential } : this.#missing();
    }
    if (authType === "OAUTH") {
      const expired = this.#expiresAt !== null && this.#expiresAt - EXPIRY_SKEW_MS <= this.now();
      if (this.#token === null || expired) await this.#refresh();
      return { authorization: `Bearer ${this.#token ?? ""}` };
    }
    throw connectorError(
      "INVALID_SETTINGS",
      `MCP connections do not support ${authType} authentication.`,
    );
  }

  /** After a 401: refresh once per call (OAuth only). True when the request should be retried. */
  async onUnauthorized(): Promise<boolean> {
    if (this.#target.authType !== "OAUTH" || this.#refreshedThisCall) return false;
    await this.#refresh();
    return true;
  }

  async #refresh(): Promise<void> {
    const oauth = this.#secrets.oauth;
    if (!oauth)
      throw connectorError(
        "AUTH_FAILED",
        "The MCP connection is not authorized. Ask the workspace owner to connect it.",
      );
    // Concurrent requests of one session share one refresh.
    this.#refreshing ??= oauth.refresh().finally(() => (this.#refreshing = null));
    try {
      this.#token = await this.#refreshing;
    } catch (error) {
      throw connectorError(
        "AUTH_FAILED",
        "The MCP connection's authorization could not be refreshed. Ask the workspace owner to reconnect it.",
        error,
      );
    }
    // The broker persisted the new expiry; until the next call we only know the token is fresh.
    this.#expiresAt = null;
    this.#refreshedThisCall = true;
  }

  #missing(): never {
    throw connectorError(
      "AUTH_FAILED",
      "The MCP connection has no credential. Ask the workspace owner to add one.",
    );
  }
}

/** The guarded fetch with this session's credential added, and one retry after a refresh. */
export function authorisedFetch(base: OutboundFetch, auth: McpAuth): OutboundFetch {
  return async (input, init) => {
    const send = async () => {
      const headers = new Headers(init?.headers);
      for (const [name, value] of Object.entries(await auth.headers())) headers.set(name, value);
      const name = auth.headerName;
      // netguard drops these on a cross-origin redirect (Authorization always is).
      // The SSE streams of a session outlive netguard's default 30 s deadline; each call is
      // bounded by its own deadline (signal), so only a generous ceiling is set here.
      const extra = { sensitiveHeaders: name ? [name] : [], timeoutMs: MCP_STREAM_CEILING_MS };
      const guardedInit: RequestInit = { ...init, headers, ...extra };
      return base(input, guardedInit);
    };
    const response = await send();
    if (response.status === 401 && (await auth.onUnauthorized())) {
      await response.body?.cancel().catch(() => undefined);
      return send();
    }
    return response;
  };
}

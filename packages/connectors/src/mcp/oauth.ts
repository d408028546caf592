// OAuth 2.1 for MCP connections (PKCE, RFC 8707 resource indicators, RFC 9728 discovery, dynamic
// client registration), through the SDK's OAuthClientProvider. Two phases:
//  - connect (web app, the owner's browser): beginMcpOAuth → redirect → finishMcpOAuth(code);
//  - refresh (worker, inside secrets.oauth.refresh(), only when the access token expired):
//    refreshMcpOAuth. The refresh token lives only in the broker's store callbacks; the
//    connector and the SDK transports used for tool calls never see it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  auth,
  UnauthorizedError,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { OutboundFetch } from "../shared/deps.ts";
import { connectorError } from "../shared/errors.ts";

/** Persistence callbacks the app supplies (encrypted columns of the Connection row). */
export interface McpOAuthStore {
  clientInformation(): Promise<OAuthClientInformationMixed | undefined>;
  saveClientInformation(info: OAuthClientInformationMixed): Promise<void>;
  tokens(): Promise<OAuthTokens | undefined>;
  saveTokens(tokens: OAuthTokens): Promise<void>;
  codeVerifier(): Promise<string | undefined>;
  saveCodeVerifier(verifier: string): Promise<void>;
  discoveryState?(): Promise<OAuthDiscoveryState | undefined>;
  saveDiscoveryState?(state: OAuthDiscoveryState): Promise<void>;
  invalidate?(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): Promise<void>;
}

export interface McpOAuthOptions {
  store: McpOAuthStore;
  /** The web app's callback URL; undefined in the worker (no browser there). */
  redirectUrl?: string;
  clientName: string;
  /** A client ID metadata document URL (SEP-991), if the app publishes one. */
  clientMetadataUrl?: string;
  scope?: string;
  /** The OAuth `state` sent with the authorization request (the app checks it at its callback). */
  state?: string;
}

/** The SDK provider backed by the store; `authorizationUrl` receives the URL to send the owner to. */
export function createMcpOAuthProvider(
  options: McpOAuthOptions,
  onAuthorizationUrl: (url: URL) => void | Promise<void>,
): OAuthClientProvider {
  const { store } = options;
  const metadata: OAuthClientMetadata = {
    client_name: options.clientName,
    redirect_uris: options.redirectUrl ? [options.redirectUrl] : [],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: "none",
    ...(options.scope ? { scope: options.scope } : {}),
  };
  return {
    get redirectUrl() {
      return options.redirectUrl;
    },
    ...(options.clientMetadataUrl ? { clientMetadataUrl: options.clientMetadataUrl } : {}),
    ...(options.state === undefined ? {} : { state: () => options.state! }),
    get clientMetadata() {
      return metadata;
    },
    clientInformation: () => store.clientInformation(),
    saveClientInformation: (info) => store.saveClientInformation(info),
    tokens: () => store.tokens(),
    saveTokens: (tokens) => store.saveTokens(tokens),
    redirectToAuthorization: (url) => onAuthorizationUrl(url),
    saveCodeVerifier: (verifier) => store.saveCodeVerifier(verifier),
    codeVerifier: async () => {
      const verifier = await store.codeVerifier();
      if (!verifier)
        throw connectorError(
          "AUTH_FAILED",
          "The OAuth authorization was not started from this app. Start connecting again.",
        );
      return verifier;
    },
    ...(store.discoveryState ? { discoveryState: () => store.discoveryState!() } : {}),
    ...(store.saveDiscoveryState
      ? { saveDiscoveryState: (s: OAuthDiscoveryState) => store.saveDiscoveryState!(s) }
      : {}),
    ...(store.invalidate
      ? {
          invalidateCredentials: (scope: Parameters<NonNullable<McpOAuthStore["invalidate"]>>[0]) =>
            store.invalidate!(scope),
        }
      : {}),
  };
}

/**
 * Starts connecting: probes the server (so WWW-Authenticate scope and resource metadata hints
 * are honoured), discovers, registers and returns where to send the owner — or `null` when the
 * stored tokens already work.
 */
export async function beginMcpOAuth(
  endpoint: string,
  options: McpOAuthOptions,
  fetch: OutboundFetch,
): Promise<URL | null> {
  let authorizationUrl: URL | null = null;
  const provider = createMcpOAuthProvider(options, (url) => {
    authorizationUrl = url;
  });
  const client = new Client({ name: options.clientName, version: "1" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(endpoint), {
    authProvider: provider,
    fetch,
  });
  try {
    await client.connect(transport);
    return null;
  } catch (error) {
    if (error instanceof UnauthorizedError && authorizationUrl) return authorizationUrl;
    throw connectorError(
      "AUTH_FAILED",
      "Connecting the MCP server with OAuth failed before the authorization step.",
      error,
    );
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** Finishes connecting with the code from the callback: exchanges it (PKCE) and saves tokens. */
export async function finishMcpOAuth(
  endpoint: string,
  options: McpOAuthOptions,
  code: string,
  fetch: OutboundFetch,
): Promise<void> {
  const provider = createMcpOAuthProvider(options, () => {
    throw connectorError(
      "AUTH_FAILED",
      "The authorization server asked for a new authorization while finishing. Start connecting again.",
    );
  });
  const result = await auth(provider, {
    serverUrl: endpoint,
    authorizationCode: code,
    fetchFn: fetch,
  }).catch((error: unknown) => {
    throw connectorError(
      "AUTH_FAILED",
      "The OAuth code exchange failed. Start connecting again.",
      error,
    );
  });
  if (result !== "AUTHORIZED")
    throw connectorError(
      "AUTH_FAILED",
      "The OAuth code exchange did not authorize the connection.",
    );
}

/**
 * Worker side, called from the broker's secrets.oauth.refresh() when the access token expired:
 * uses the stored refresh token (through the store), saves the new tokens, returns the new
 * access token. If the server wants a new interactive authorization, the owner must reconnect.
 */
export async function refreshMcpOAuth(
  endpoint: string,
  options: McpOAuthOptions,
  fetch: OutboundFetch,
): Promise<string> {
  const provider = createMcpOAuthProvider({ ...options, redirectUrl: undefined }, () => {
    throw connectorError(
      "AUTH_FAILED",
      "The MCP connection's authorization expired and could not be refreshed. Ask the workspace owner to reconnect it.",
    );
  });
  const current = await options.store.tokens();
  if (!current?.refresh_token) {
    throw connectorError(
      "AUTH_FAILED",
      "The MCP connection's access token expired and there is no refresh token. Ask the workspace owner to reconnect it.",
    );
  }
  const result = await auth(provider, { serverUrl: endpoint, fetchFn: fetch }).catch(
    (error: unknown) => {
      throw connectorError(
        "AUTH_FAILED",
        "Refreshing the MCP connection's authorization failed. Ask the workspace owner to reconnect it.",
        error,
      );
    },
  );
  const tokens = await options.store.tokens();
  if (result !== "AUTHORIZED" || !tokens?.access_token)
    throw connectorError(
      "AUTH_FAILED",
      "Refreshing the MCP connection's authorization did not return a token.",
    );
  return tokens.access_token;
}

/** expires_in → an absolute expiry for ConnectionSecrets.oauth.expiresAt. */
export function tokenExpiresAt(tokens: OAuthTokens, nowMs: number): number | null {
  return typeof tokens.expires_in === "number" ? nowMs + tokens.expires_in * 1000 : null;
}

/** What one authorization reads and saves, held by the app between its two steps. */
export interface McpOAuthSession {
  clientInformation?: Record<string, unknown>;
  codeVerifier?: string;
  discoveryState?: Record<string, unknown>;
  tokens?: { access_token: string; refresh_token?: string; expires_in?: number };
}

/** The SDK's store callbacks over a plain object the app encrypts and keeps. */
function sessionStore(session: McpOAuthSession): McpOAuthStore {
  return {
    clientInformation: () =>
      Promise.resolve(session.clientInformation as OAuthClientInformationMixed | undefined),
    saveClientInformation: (info) => {
      session.clientInformation = { ...info };
      return Promise.resolve();
    },
    tokens: () => Promise.resolve(session.tokens as OAuthTokens | undefined),
    saveTokens: (tokens) => {
      session.tokens = { ...tokens };
      return Promise.resolve();
    },
    codeVerifier: () => Promise.resolve(session.codeVerifier),
    saveCodeVerifier: (verifier) => {
      session.codeVerifier = verifier;
      return Promise.resolve();
    },
    discoveryState: () =>
      Promise.resolve(session.discoveryState as OAuthDiscoveryState | undefined),
    saveDiscoveryState: (state) => {
      session.discoveryState = { ...state };
      return Promise.resolve();
    },
  };
}

/**
 * The owner's connect flow (the domain layer's McpAuthorizer): begin → the authorization URL
 * (PKCE S256, dynamic client registration when the server offers it, `state` included); finish
 * → the code exchanged with the session's verifier. Every request goes through `fetch`
 * (netguard in the web process).
 */
export function createMcpAuthorizer(fetch: OutboundFetch, clientName: string) {
  return {
    async begin(input: {
      endpoint: string;
      redirectUrl: string;
      state: string;
      session: McpOAuthSession;
    }): Promise<string | null> {
      const options = {
        store: sessionStore(input.session),
        redirectUrl: input.redirectUrl,
        clientName,
        state: input.state,
      };
      const url = await beginMcpOAuth(input.endpoint, options, fetch);
      return url ? url.toString() : null;
    },
    async finish(input: {
      endpoint: string;
      redirectUrl: string;
      code: string;
      session: McpOAuthSession;
    }): Promise<void> {
      const options = {
        store: sessionStore(input.session),
        redirectUrl: input.redirectUrl,
        clientName,
      };
      await finishMcpOAuth(input.endpoint, options, input.code, fetch);
    },
  };
}

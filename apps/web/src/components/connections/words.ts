// Connection kinds and authentication in words for the owner.
export const KIND_WORDS = {
  MCP: "MCP server",
  HTTP: "HTTP API",
  GITHUB: "GitHub",
  SENTRY: "Sentry",
} as const;

export const AUTH_WORDS = {
  NONE: "No credential",
  BEARER: "Bearer token",
  HEADER: "Token in a header",
  OAUTH: "OAuth",
  GITHUB_APP: "GitHub App",
} as const;

export type ConnectionKindName = keyof typeof KIND_WORDS;
export type ConnectionAuthName = keyof typeof AUTH_WORDS;

/** Set by the API (being added) when the OAuth server refused a refresh. */
export interface ReconnectState {
  since: Date;
  message: string;
}

export function reconnectState(connection: object): ReconnectState | null {
  const value = (connection as { reconnect?: ReconnectState | null }).reconnect;
  return value ?? null;
}

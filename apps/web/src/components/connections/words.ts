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

/** After discovery: "Found 3 tools: echo, add and delete_page (may change data)." */
export function discoveredInWords(
  tools: ReadonlyArray<{ name: string; mayChangeData: boolean }>,
): string {
  if (tools.length === 0) return "The server offers no tools.";
  const names = tools.map((t) => `${t.name}${t.mayChangeData ? " (may change data)" : ""}`);
  const list =
    names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
  return `Found ${tools.length} tool${tools.length === 1 ? "" : "s"}: ${list}.`;
}

/** Why /api/oauth/callback sent the owner back without a connection, in words. */
const OAUTH_FAILURES: Record<string, string> = {
  OAUTH_NOT_AUTHORIZED: "the authorization was declined or cancelled at the service",
  SIGNED_OUT: "you were signed out when the service sent you back; sign in and try again",
  OAUTH_NOT_AVAILABLE: "this server is not set up for OAuth connections",
};

/** The status the OAuth callback put in the page's address (`oauth`, `reason`), in words. */
export function oauthStatusInWords(oauth?: string, reason?: string): string | null {
  if (oauth === "connected") return "Connected with OAuth: the service authorized this connection.";
  if (oauth !== "failed") return null;
  // Only a reason code is shown (letters and underscores): the address is the user's to edit.
  const code = reason && /^[A-Z_]{1,64}$/.test(reason) ? reason : "OAUTH_FAILED";
  const why = OAUTH_FAILURES[code] ?? `the service did not complete it (${code})`;
  return `Connecting with OAuth failed: ${why}. Use "Reconnect" on the connection to try again.`;
}

/** What the discovery at creation found, said in the "added" message ("" when none was tried). */
export function firstDiscoveryInWords(
  discovery: { tools: number } | { error: string } | null,
  authType: string,
): string {
  if (authType === "OAUTH") return "Connect it with OAuth on its page; its tools are listed then.";
  if (discovery === null) return "";
  if ("error" in discovery)
    return `Its tools could not be listed yet: ${discovery.error.replace(/\.?$/, ".")} Use Discover tools on its page to try again.`;
  const n = discovery.tools;
  return `Found ${n} tool${n === 1 ? "" : "s"}: choose on its page which ones jobs may use.`;
}

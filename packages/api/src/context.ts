// The per-request context: the account deps (database, rate limiter, clock), what we know of
// the request (client address, origin), the session the cookie names (or null), and a writer
// for the session cookie so procedures never touch headers themselves.
import type { IncomingMessage, ServerResponse } from "node:http";
import { resolveSession, type AccountsDeps, type ResolvedSession } from "@secondshift/accounts";
import type {
  DestinationCheck,
  McpAuthorizer,
  OutboundFetch,
  ToolDiscovery,
  WorkspaceServices,
} from "@secondshift/domain";
import type { WorkspaceCreationPolicy } from "@secondshift/config";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import type { RunEventListener } from "./run-events/listener.ts";
import {
  readSessionCookie,
  sessionCookieWriter,
  type CookieSettings,
  type SessionCookieWriter,
} from "./cookies.ts";

export interface ApiDeps {
  accounts: AccountsDeps;
  /** The URL browsers use for the web app; links shown to users start with it. */
  publicUrl: string;
  cookie: CookieSettings;
  /** The one-time setup token the web service printed at start, or null when not required. */
  setupToken: () => string | null;
  /** The client's address for rate limits (behind a proxy: the proxy decides; see http.ts). */
  clientAddress: (req: IncomingMessage) => string;
  /** The process's shared run event listener (live transcripts); absent: they are refused. */
  runEvents?: RunEventListener;
  /** How often a live stream re-checks its session and membership before sending (ms). */
  streamReauthorizeMs?: number;
  /** The queues behind run now, pause / resume and sync now (absent: those calls fail). */
  services?: WorkspaceServices;
  /** Encrypts credentials, provider keys and webhook secrets bound to their row (P06). */
  keyring?: Keyring;
  /** The operator's cap on a run's token budget (RUN_MAX_TOKEN_BUDGET). */
  maxTokenBudget?: number;
  /** Who may create workspaces (SECONDSHIFT_WORKSPACE_CREATION). */
  workspaceCreation: WorkspaceCreationPolicy;
  /** Tool discovery over netguard with the connection's credential (absent: discover fails). */
  discovery?: ToolDiscovery;
  /** netguard's guarded fetch, for calls the web process makes itself (provider verify). */
  outbound?: OutboundFetch;
  /** OAuth 2.1 for MCP connections (createMcpAuthorizer from @secondshift/connectors). */
  mcpOAuth?: McpAuthorizer;
  /** The save-time check of owner URLs (netguard's createDestinationChecker, C21). */
  destinations?: DestinationCheck;
}

export interface Context {
  deps: ApiDeps;
  db: Db;
  /** The client's address (trusted-proxy aware) and User-Agent, for limits and sessions. */
  request: { clientAddress: string; origin: string | null; userAgent: string | null };
  session: ResolvedSession | null;
  /** The raw cookie value, only to end this very session at sign-out. */
  sessionToken: string | undefined;
  cookies: SessionCookieWriter;
}

export async function createContext(
  deps: ApiDeps,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<Context> {
  const sessionToken = readSessionCookie(req, deps.cookie);
  return {
    deps,
    db: deps.accounts.db,
    request: {
      clientAddress: deps.clientAddress(req),
      origin: req.headers.origin ?? null,
      userAgent: req.headers["user-agent"] ?? null,
    },
    session: await resolveSession(deps.accounts, sessionToken),
    sessionToken,
    cookies: sessionCookieWriter(res, deps.cookie),
  };
}

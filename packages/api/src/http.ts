// The node (req, res) handler the web process mounts at /api/ (isApiPath): the request guard
// first (CSRF and size), then tRPC's node adapter under /api/trpc/, or the audit export's
// streamed download (GET /api/audit/export, see audit-export.ts); procedures never see a refused
// request. The OAuth callback for MCP connections comes before the guard (a top-level redirect
// from the authorization server carries no Origin).
import type { IncomingMessage, ServerResponse } from "node:http";
import type {
  DestinationCheck,
  McpAuthorizer,
  OutboundFetch,
  ToolDiscovery,
  WorkspaceServices,
} from "@secondshift/domain";
import type { AccountsDeps } from "@secondshift/accounts";
import type { WorkspaceCreationPolicy } from "@secondshift/config";
import type { Keyring } from "@secondshift/crypto";
import type { Logger } from "@secondshift/logging";
import { MAX_BATCH_CALLS } from "@secondshift/vocabulary";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { clientAddressResolver } from "./client-address.ts";
import { cookieSettings } from "./cookies.ts";
import { createContext, type ApiDeps } from "./context.ts";
import { AUDIT_EXPORT_PATH, handleAuditExport } from "./audit-export.ts";
import { describeInternalError } from "./errors.ts";
import { guardRequest } from "./guard.ts";
import { handleOAuthCallback, OAUTH_CALLBACK_PATH } from "./oauth-callback.ts";
import type { RunEventListener } from "./run-events/listener.ts";
import { appRouter } from "./root.ts";

/** Everything the API answers is under this prefix (the web server mounts the handler here). */
export const API_PATH_PREFIX = "/api/";
export const API_BASE_PATH = "/api/trpc/";
export const MAX_API_BODY_BYTES = 1024 * 1024;

const isOAuthCallback = (url: string | undefined) =>
  url === OAUTH_CALLBACK_PATH || url?.startsWith(`${OAUTH_CALLBACK_PATH}?`) === true;

/** Whether the owner API's handler serves this request URL (everything under /api/). */
export function isApiPath(url: string | undefined): boolean {
  return url?.startsWith(API_PATH_PREFIX) === true;
}

export interface ApiOptions {
  accounts: AccountsDeps;
  publicUrl: string;
  setupToken: () => string | null;
  logger: Logger;
  /**
   * The client address rate limits count by (`clientAddressResolver(trusted proxy ranges)`).
   * Default: the TCP peer.
   */
  clientAddress?: (req: IncomingMessage) => string;
  maxBodyBytes?: number;
  /** One per process (startRunEventListener), for live run transcripts. */
  runEvents?: RunEventListener;
  /** Live streams re-check the session and membership this often (default one minute). */
  streamReauthorizeMs?: number;
  /** The queues the web process owns, for run now, pause / resume and sync now. */
  services?: WorkspaceServices;
  keyring?: Keyring;
  /** The operator's cap on a run's token budget (RUN_MAX_TOKEN_BUDGET), for workspace defaults. */
  maxTokenBudget?: number;
  /** Who may create workspaces (the web's SECONDSHIFT_WORKSPACE_CREATION); default "owners". */
  workspaceCreation?: WorkspaceCreationPolicy;
  /** Owner-triggered tool discovery (`createToolDiscovery` from @secondshift/broker). */
  discovery?: ToolDiscovery;
  /** netguard's guarded fetch (provider verify); every call the web process makes goes here. */
  outbound?: OutboundFetch;
  /** OAuth 2.1 for MCP connections (`createMcpAuthorizer` from @secondshift/connectors). */
  mcpOAuth?: McpAuthorizer;
  /** The save-time check of owner URLs (netguard's createDestinationChecker, C21). */
  destinations?: DestinationCheck;
}

export function apiDeps(options: ApiOptions): ApiDeps {
  return {
    accounts: options.accounts,
    publicUrl: options.publicUrl,
    cookie: cookieSettings(options.publicUrl, options.accounts.sessions.absoluteMs),
    setupToken: options.setupToken,
    clientAddress: options.clientAddress ?? clientAddressResolver([]),
    workspaceCreation: options.workspaceCreation ?? "owners",
    ...(options.maxTokenBudget === undefined ? {} : { maxTokenBudget: options.maxTokenBudget }),
    ...(options.runEvents ? { runEvents: options.runEvents } : {}),
    ...(options.streamReauthorizeMs === undefined
      ? {}
      : { streamReauthorizeMs: options.streamReauthorizeMs }),
    ...(options.services ? { services: options.services } : {}),
    ...(options.keyring ? { keyring: options.keyring } : {}),
    ...(options.discovery ? { discovery: options.discovery } : {}),
    ...(options.outbound ? { outbound: options.outbound } : {}),
    ...(options.mcpOAuth ? { mcpOAuth: options.mcpOAuth } : {}),
    ...(options.destinations ? { destinations: options.destinations } : {}),
  };
}

export function createApiHandler(
  options: ApiOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  const deps = apiDeps(options);
  const maxBodyBytes = options.maxBodyBytes ?? MAX_API_BODY_BYTES;
  const publicOrigin = new URL(options.publicUrl).origin;
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: API_BASE_PATH,
    maxBodySize: maxBodyBytes,
    // The guard refuses longer batches first, with words; this is tRPC's own backstop.
    maxBatchSize: MAX_BATCH_CALLS,
    createContext: ({ req, res }) => createContext(deps, req, res),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") {
        options.logger.error(
          { error: describeInternalError(error.cause ?? error), path },
          "api procedure failed",
        );
      }
    },
  });
  return (req, res) => {
    if (isOAuthCallback(req.url)) {
      void handleOAuthCallback(deps, options.logger, req, res).catch((error: unknown) => {
        options.logger.error({ error: describeInternalError(error) }, "oauth callback failed");
        if (!res.headersSent) res.writeHead(500).end();
      });
      return;
    }
    const refusal = guardRequest(req, { publicOrigin, maxBodyBytes, trpcBasePath: API_BASE_PATH });
    if (refusal) {
      res
        .writeHead(refusal.status, { "content-type": "application/json", connection: "close" })
        .end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }));
      return;
    }
    if (req.url?.startsWith(API_BASE_PATH)) return trpc(req, res);
    if (new URL(req.url ?? "", "http://local").pathname === AUDIT_EXPORT_PATH) {
      void handleAuditExport(deps, options.logger, req, res);
      return;
    }
    res
      .writeHead(404, { "content-type": "application/json" })
      .end(JSON.stringify({ error: { code: "NOT_FOUND", message: "No such API route." } }));
  };
}

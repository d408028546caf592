// The node (req, res) handler the web process mounts at /api/: the request guard first (CSRF
// and size), then tRPC's node adapter under /api/trpc/, or the audit export's streamed download
// (GET /api/audit/export, see audit-export.ts). Procedures never see a refused request.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { WorkspaceServices } from "@secondshift/access";
import type { AccountsDeps } from "@secondshift/accounts";
import type { WorkspaceCreationPolicy } from "@secondshift/config";
import type { Keyring } from "@secondshift/crypto";
import type { Logger } from "@secondshift/logging";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { cookieSettings } from "./cookies.ts";
import { createContext, type ApiDeps } from "./context.ts";
import { AUDIT_EXPORT_PATH, handleAuditExport } from "./audit-export.ts";
import { describeInternalError } from "./errors.ts";
import { guardRequest } from "./guard.ts";
import type { RunEventListener } from "./run-events/listener.ts";
import { appRouter } from "./root.ts";

/** Everything the API answers is under this prefix (the web server mounts the handler here). */
export const API_PATH_PREFIX = "/api/";
export const API_BASE_PATH = "/api/trpc/";
export const MAX_API_BODY_BYTES = 1024 * 1024;

export interface ApiOptions {
  accounts: AccountsDeps;
  publicUrl: string;
  setupToken: () => string | null;
  logger: Logger;
  /**
   * The client address rate limits count by. Default: the TCP peer. Behind a reverse proxy every
   * client shares the proxy's address; pass a function that reads the proxy's header then.
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
}

export function apiDeps(options: ApiOptions): ApiDeps {
  return {
    accounts: options.accounts,
    publicUrl: options.publicUrl,
    cookie: cookieSettings(options.publicUrl, options.accounts.sessions.absoluteMs),
    setupToken: options.setupToken,
    clientAddress: options.clientAddress ?? ((req) => req.socket.remoteAddress ?? "unknown"),
    workspaceCreation: options.workspaceCreation ?? "owners",
    ...(options.maxTokenBudget === undefined ? {} : { maxTokenBudget: options.maxTokenBudget }),
    ...(options.runEvents ? { runEvents: options.runEvents } : {}),
    ...(options.streamReauthorizeMs === undefined
      ? {}
      : { streamReauthorizeMs: options.streamReauthorizeMs }),
    ...(options.services ? { services: options.services } : {}),
    ...(options.keyring ? { keyring: options.keyring } : {}),
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
    const refusal = guardRequest(req, { publicOrigin, maxBodyBytes });
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

// The node (req, res) handler the web process mounts at /api/trpc/: the request guard first
// (CSRF and size), then tRPC's node adapter. Procedures never see a refused request.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OutboundFetch, ToolDiscovery, WorkspaceServices } from "@secondshift/access";
import type { AccountsDeps } from "@secondshift/accounts";
import type { Keyring } from "@secondshift/crypto";
import type { Logger } from "@secondshift/logging";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import { cookieSettings } from "./cookies.ts";
import { createContext, type ApiDeps } from "./context.ts";
import { describeInternalError } from "./errors.ts";
import { guardRequest } from "./guard.ts";
import type { RunEventListener } from "./run-events/listener.ts";
import { appRouter } from "./root.ts";

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
  /** Owner-triggered tool discovery (`createToolDiscovery` from @secondshift/broker). */
  discovery?: ToolDiscovery;
  /** netguard's guarded fetch (provider verify); every call the web process makes goes here. */
  outbound?: OutboundFetch;
}

export function apiDeps(options: ApiOptions): ApiDeps {
  return {
    accounts: options.accounts,
    publicUrl: options.publicUrl,
    cookie: cookieSettings(options.publicUrl, options.accounts.sessions.absoluteMs),
    setupToken: options.setupToken,
    clientAddress: options.clientAddress ?? ((req) => req.socket.remoteAddress ?? "unknown"),
    ...(options.runEvents ? { runEvents: options.runEvents } : {}),
    ...(options.streamReauthorizeMs === undefined
      ? {}
      : { streamReauthorizeMs: options.streamReauthorizeMs }),
    ...(options.services ? { services: options.services } : {}),
    ...(options.keyring ? { keyring: options.keyring } : {}),
    ...(options.discovery ? { discovery: options.discovery } : {}),
    ...(options.outbound ? { outbound: options.outbound } : {}),
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
    if (!refusal) return trpc(req, res);
    res
      .writeHead(refusal.status, { "content-type": "application/json", connection: "close" })
      .end(JSON.stringify({ error: { code: refusal.code, message: refusal.message } }));
  };
}

// The gateway's HTTP server: plain node:http (the router is one map lookup), a health endpoint,
// and a graceful close that stops accepting, lets in-flight requests finish and waits for
// their budget settlements, so a deploy never leaves a reservation behind.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { AppError } from "@secondshift/errors";
import { sendError, sendJson } from "./errors.ts";
import { handleModelRequest } from "./handler.ts";
import { resolveForwarding, resolveLimits, type GatewayOptions } from "./options.ts";
import { matchRoute } from "./routes.ts";

export interface Gateway {
  server: Server;
  /** Starts listening; resolves with the bound port. */
  listen(port: number, host?: string): Promise<number>;
  /** Resolves once every settlement started so far has been written. */
  settled(): Promise<void>;
  /** Stops accepting, waits for in-flight requests and their settlements (at most `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

const notFound = () =>
  new AppError(
    "NOT_FOUND",
    "The gateway forwards only POST /v1/messages, /v1/messages/count_tokens, /v1/chat/completions and /v1/responses.",
    {
      reason: "PATH_NOT_ALLOWED",
    },
  );

export function createGatewayServer(options: GatewayOptions): Gateway {
  const limits = resolveLimits(options.limits);
  const deps = { ...options, limits, forwarding: resolveForwarding(options.forwarding) };
  // In-flight requests, each until its settlement is written.
  const pending = new Set<Promise<unknown>>();

  const server = createServer((req, res) => {
    const route = matchRoute(req.method, req.url);
    if (route) {
      const work = handleModelRequest(deps, route, req, res).finally(() => pending.delete(work));
      pending.add(work);
      return;
    }
    if (deps.readyz?.(req, res)) return;
    if (req.method === "GET" && req.url === "/healthz") {
      deps.db.$queryRaw`SELECT 1`.then(
        () => sendJson(res, 200, { status: "ok" }),
        () => sendJson(res, 503, { status: "database unavailable" }),
      );
      return;
    }
    sendError(res, notFound());
  });
  // Request bodies must arrive promptly; long model streams are bounded by the upstream timeout.
  server.requestTimeout = 120_000;
  server.headersTimeout = 30_000;
  server.keepAliveTimeout = 65_000;

  const settled = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
  };

  return {
    server,
    listen: (port, host = "0.0.0.0") =>
      new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          resolve((server.address() as AddressInfo).port);
        });
      }),
    settled,
    async close(graceMs = 30_000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.all([closed, settled()]), timer]);
      server.closeAllConnections();
      // Requests cut at the deadline still settle (charging their reservation).
      await Promise.race([
        settled(),
        new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref()),
      ]);
    },
  };
}

// The web process's HTTP routes: health and readiness, the owner API under /api/ (tRPC, the
// audit export and the OAuth callback: its own guard and handler, packages/api), inbound GitHub
// webhooks (a repository's own hook: pushes start a sync, pull request / issue / comment
// events go to the event intake; and a GitHub App connection's hook, routed by installation and
// repository: @secondshift/events), and the owner web app's pages (Next.js) for everything
// else (404 JSON when no pages are mounted). A delivery is authenticated only by its HMAC
// signature with that hook's own secret (constant time, replay window). Every response carries the
// static security headers (security-headers.ts); the JSON routes also a policy that allows
// nothing, pages get theirs from proxy.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isApiPath } from "@secondshift/api";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import {
  handleGitHubDelivery,
  type DeliveryTarget,
  type EventWebhookDeps,
} from "@secondshift/events";
import { addRunToQueue, requestSync, type RunQueue, type SyncQueue } from "@secondshift/scheduler";
import { createReplayGuard } from "@secondshift/webhooks";
import { HSTS, NON_DOCUMENT_CSP, STATIC_SECURITY_HEADERS } from "./security-headers.ts";

const MAX_WEBHOOK_BYTES = 1024 * 1024;
const PUSH_ROUTE = /^\/webhooks\/repositories\/([0-9a-f-]{36})\/push$/;
const APP_ROUTE = /^\/webhooks\/github-app\/([0-9a-f-]{36})$/;

export interface WebServerDeps {
  db: Db;
  keyring: Keyring;
  syncQueue: SyncQueue;
  /** Event-started runs go here once their row committed. */
  runQueue: RunQueue;
  logger: Logger;
  /** Events older than this start nothing (default: the intake's, the replay window). */
  maxEventAgeSeconds?: number;
  /** The owner API handler (createApiHandler): /api/trpc/ and the OAuth callback; else 404. */
  api?: (req: IncomingMessage, res: ServerResponse) => void;
  /** `/readyz` (`readyzRoute` of @secondshift/service): true when it answered. */
  readyz?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** The web app's pages (prepareWebApp); without it other paths answer 404 JSON. */
  pages?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** Served over https (the public URL): browsers are told to use https only (HSTS). */
  https?: boolean;
}

const isOwnRoute = (url: string) =>
  url === "/healthz" || url === "/readyz" || url.startsWith("/webhooks/") || isApiPath(url);

function json(status: number, body: unknown) {
  return { status, body: JSON.stringify(body) };
}

function readLimited(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        resolve(null);
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function webhookTarget(url: string): DeliveryTarget | null {
  const push = PUSH_ROUTE.exec(url);
  if (push) return { repositoryId: push[1]! };
  const app = APP_ROUTE.exec(url);
  return app ? { connectionId: app[1]! } : null;
}

/** GitHub's event name and delivery id, for the log line (capped: they are the sender's). */
function deliveryLogFields(req: IncomingMessage) {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.slice(0, 100);
  return {
    event: first(req.headers["x-github-event"]),
    deliveryId: first(req.headers["x-github-delivery"]),
  };
}

export function createWebServer(deps: WebServerDeps): Server {
  const replayGuard = createReplayGuard(deps.db, { windowSeconds: 600 });
  const webhookDeps: EventWebhookDeps = {
    keyring: deps.keyring,
    replayGuard,
    triggerSync: (target) => requestSync(deps.syncQueue, target),
    enqueueRun: (run) => addRunToQueue(deps.runQueue, run),
    ...(deps.maxEventAgeSeconds !== undefined
      ? { maxEventAgeSeconds: deps.maxEventAgeSeconds }
      : {}),
  };

  async function route(req: IncomingMessage): Promise<{ status: number; body: string }> {
    if (req.method === "GET" && req.url === "/healthz") {
      try {
        await deps.db.$queryRaw`SELECT 1`;
        return json(200, { status: "ok" });
      } catch {
        return json(503, { status: "database unavailable" });
      }
    }
    const target = webhookTarget(req.url ?? "");
    if (req.method === "POST" && target) {
      const rawBody = await readLimited(req, MAX_WEBHOOK_BYTES);
      if (!rawBody)
        return json(413, {
          error: { code: "PAYLOAD_TOO_LARGE", message: "Webhook bodies are limited to 1 MiB." },
        });
      const result = await handleGitHubDelivery(deps.db, webhookDeps, {
        ...target,
        headers: req.headers,
        rawBody,
      });
      deps.logger.info({ ...target, ...deliveryLogFields(req), status: result.status }, "webhook");
      return json(result.status, { message: result.message });
    }
    return json(404, { error: { code: "NOT_FOUND", message: "No such page." } });
  }

  return createServer((req, res) => {
    const url = req.url ?? "";
    for (const [name, value] of Object.entries(STATIC_SECURITY_HEADERS)) res.setHeader(name, value);
    if (deps.https) res.setHeader("strict-transport-security", HSTS);
    if (deps.pages && !isOwnRoute(url)) {
      deps.pages(req, res).catch((err: unknown) => {
        deps.logger.error({ err }, "page failed");
        if (!res.headersSent) res.writeHead(500).end("The page failed; retry.");
      });
      return;
    }
    res.setHeader("content-security-policy", NON_DOCUMENT_CSP);
    if (deps.readyz?.(req, res)) return;
    if (deps.api && isApiPath(url)) return deps.api(req, res);
    route(req)
      .then(({ status, body }) =>
        res.writeHead(status, { "content-type": "application/json" }).end(body),
      )
      .catch((err: unknown) => {
        deps.logger.error({ err }, "request failed");
        res
          .writeHead(500, { "content-type": "application/json" })
          .end('{"error":{"code":"INTERNAL","message":"The request failed; retry."}}');
      });
  });
}

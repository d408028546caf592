// Forwards one admitted request and passes the answer through as it arrives. The body is
// written chunk by chunk and the next upstream chunk is read only once the client has taken
// the previous one (backpressure: a slow client slows the provider read instead of filling
// memory). Usage is read on the side. A client that goes away aborts the upstream request.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from "node:http";
import type { Readable } from "node:stream";
import { isNetguardError, type GuardedResponse } from "@secondshift/netguard";
import { AppError } from "@secondshift/errors";
import type { Charge } from "./budget.ts";
import { providerError, sendError, sendJson, upstreamFailure } from "./errors.ts";
import { clientResponseHeaders, upstreamHeaders } from "./headers.ts";
import type { GatewayDeps } from "./options.ts";
import { upstreamUrl, type ProviderFamily, type Route } from "./routes.ts";
import { jsonUsageTap, sseUsageTap, type UsageTap } from "./usage-tap.ts";

export type Outcome =
  "ok" | "provider_error" | "upstream_failed" | "stream_cut" | "client_gone" | "no_usage";

export interface ForwardResult {
  outcome: Outcome;
  upstreamStatus: number | null;
  /** Provider-reported usage, or null when it never arrived (the reservation is charged then). */
  usage: Charge | null;
  /** Whether the provider may have done (billable) work; false only when it surely did not. */
  mayHaveCharged: boolean;
  error?: AppError;
}

export interface ForwardRequest {
  route: Route;
  family: ProviderFamily;
  baseUrl: string;
  providerKey: string;
  /** The checked `anthropic-beta` value, if any (anthropicBetas). */
  anthropicBeta: string | null;
  body: Buffer;
  stream: boolean;
}

const ERROR_BODY_LIMIT = 64 * 1024;

function waitDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

async function readCapped(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) break;
    chunks.push(chunk);
  }
  body.destroy();
  return Buffer.concat(chunks).toString("utf8");
}

/** Non-streamed answers up to this size go to the client in one write, with their length. */
const ONE_PIECE_BYTES = 256 * 1024;

/**
 * Passes the upstream body to the client. Events (SSE) are written as they arrive. A JSON
 * answer is held until it ends (up to ONE_PIECE_BYTES, then it streams too) and sent with its
 * length in one write: on loopback-class networks each socket write is a large share of the
 * gateway's added latency, and a chunked answer costs two (body, then the final chunk).
 */
async function relay(
  upstream: GuardedResponse,
  res: ServerResponse,
  headers: OutgoingHttpHeaders,
  isSse: boolean,
  tap: UsageTap | null,
): Promise<void> {
  let held: Buffer[] | null = isSse ? null : [];
  let heldBytes = 0;
  if (isSse) {
    res.writeHead(upstream.status, headers);
    res.flushHeaders();
  }
  for await (const received of upstream.body as AsyncIterable<Buffer>) {
    tap?.write(received);
    let chunk = received;
    if (held) {
      held.push(received);
      heldBytes += received.byteLength;
      if (heldBytes <= ONE_PIECE_BYTES) continue;
      chunk = Buffer.concat(held);
      held = null;
      res.writeHead(upstream.status, headers);
    }
    if (!res.write(chunk)) await waitDrain(res);
    if (res.destroyed) throw new Error("client disconnected");
  }
  if (held) {
    const whole = Buffer.concat(held);
    res.writeHead(upstream.status, { ...headers, "content-length": whole.byteLength });
    res.end(whole);
    return;
  }
  res.end();
}

export async function forward(
  deps: GatewayDeps,
  req: IncomingMessage,
  res: ServerResponse,
  fwd: ForwardRequest,
): Promise<ForwardResult> {
  const clientGone = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) clientGone.abort(new Error("client disconnected"));
  };
  res.on("close", onClose);
  try {
    if (res.destroyed)
      return { outcome: "client_gone", upstreamStatus: null, usage: null, mayHaveCharged: false };
    let upstream: GuardedResponse;
    try {
      upstream = await deps.outbound.request(upstreamUrl(fwd.baseUrl, fwd.route), {
        method: "POST",
        headers: upstreamHeaders(fwd.family, req.headers, fwd.providerKey, fwd.anthropicBeta),
        body: fwd.body,
        signal: clientGone.signal,
        redirect: "error",
        timeoutMs: deps.limits.upstreamTimeoutMs,
        maxResponseBytes: deps.limits.maxResponseBytes,
      });
    } catch (cause) {
      if (clientGone.signal.aborted)
        return { outcome: "client_gone", upstreamStatus: null, usage: null, mayHaveCharged: true };
      const error = upstreamFailure(cause);
      sendError(res, error);
      // A connection that never opened cost nothing; a timeout may have been billed.
      return {
        outcome: "upstream_failed",
        upstreamStatus: null,
        usage: null,
        mayHaveCharged: error.code === "GATEWAY_TIMEOUT",
        error,
      };
    }

    if (upstream.status < 200 || upstream.status >= 300) {
      const text = await readCapped(upstream.body, ERROR_BODY_LIMIT).catch(() => "");
      const cleaned = providerError(fwd.family, upstream.status, text, deps.masker);
      const retryAfter = upstream.headers["retry-after"];
      sendJson(
        res,
        cleaned.status,
        cleaned.body,
        typeof retryAfter === "string" && /^\d+$/.test(retryAfter)
          ? { "retry-after": retryAfter }
          : {},
      );
      return {
        outcome: "provider_error",
        upstreamStatus: upstream.status,
        usage: null,
        mayHaveCharged: false,
      };
    }

    const headers = clientResponseHeaders(upstream.headers);
    const isSse = String(headers["content-type"] ?? "").startsWith("text/event-stream");
    const tap: UsageTap | null = !fwd.route.metered
      ? null
      : isSse
        ? sseUsageTap(fwd.route.format)
        : jsonUsageTap(fwd.route.format, deps.limits.maxResponseBytes);
    const metered = fwd.route.metered;
    try {
      await relay(upstream, res, headers, isSse, tap);
    } catch (cause) {
      const usage = tap?.result() ?? null;
      upstream.body.destroy();
      const outcome: Outcome = clientGone.signal.aborted ? "client_gone" : "stream_cut";
      if (outcome === "stream_cut" && !res.headersSent) {
        // A held JSON answer was cut before any of it was sent: the client gets a clean error.
        const error = isNetguardError(cause)
          ? upstreamFailure(cause)
          : new AppError(
              "BAD_GATEWAY",
              "The model provider's answer ended before it was complete; retry the request.",
              { reason: "PROVIDER_ANSWER_CUT" },
            );
        sendError(res, error);
        return { outcome, upstreamStatus: upstream.status, usage, mayHaveCharged: metered, error };
      }
      res.destroy();
      return { outcome, upstreamStatus: upstream.status, usage, mayHaveCharged: metered };
    }
    const usage = tap?.result() ?? null;
    return {
      outcome: metered && usage === null ? "no_usage" : "ok",
      upstreamStatus: upstream.status,
      usage,
      mayHaveCharged: metered,
    };
  } finally {
    res.off("close", onClose);
  }
}

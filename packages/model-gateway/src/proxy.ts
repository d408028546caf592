// Forwards one admitted request and passes the answer through as it arrives. The body is
// written chunk by chunk and the next upstream chunk is read only once the client has taken
// the previous one (backpressure: a slow client slows the provider read instead of filling
// memory). Usage is read on the side. A client that goes away aborts the upstream request.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AppError } from "@secondshift/errors";
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

async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > limit) break;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
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
    let upstream: Response;
    try {
      upstream = await deps.outbound.fetch(upstreamUrl(fwd.baseUrl, fwd.route), {
        method: "POST",
        headers: upstreamHeaders(fwd.family, req.headers, fwd.providerKey),
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
      const retryAfter = upstream.headers.get("retry-after");
      sendJson(
        res,
        cleaned.status,
        cleaned.body,
        retryAfter && /^\d+$/.test(retryAfter) ? { "retry-after": retryAfter } : {},
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
    res.writeHead(upstream.status, headers);
    if (isSse) res.flushHeaders();
    const metered = fwd.route.metered;
    try {
      if (upstream.body) {
        const reader = (upstream.body as ReadableStream<Uint8Array>).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          tap?.write(value);
          if (!res.write(value)) await waitDrain(res);
          if (res.destroyed) throw new Error("client disconnected");
        }
      }
    } catch {
      const usage = tap?.result() ?? null;
      res.destroy();
      const outcome: Outcome = clientGone.signal.aborted ? "client_gone" : "stream_cut";
      return { outcome, upstreamStatus: upstream.status, usage, mayHaveCharged: metered };
    }
    res.end();
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

// Headers are rebuilt, never copied (C24, C14): upstream gets only an allowlist of the
// client's headers plus the provider key; the client's own Authorization / x-api-key (the run
// token) never leaves the gateway. Response headers are filtered the same way, so nothing the
// provider says about the key or the account reaches the agent loop.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import type { ProviderFamily } from "./routes.ts";

const ANTHROPIC_VERSION = "2023-06-01";

/** Client headers that are passed on when present (request semantics, nothing secret). */
const passRequest: Record<ProviderFamily, readonly string[]> = {
  ANTHROPIC: ["anthropic-beta"],
  OPENAI: [],
};

export function upstreamHeaders(
  family: ProviderFamily,
  client: IncomingHttpHeaders,
  providerKey: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept:
      client.accept === "text/event-stream"
        ? "text/event-stream"
        : "application/json, text/event-stream",
    // Identity keeps SSE byte-for-byte streamable and usage parseable without inflating.
    "accept-encoding": "identity",
  };
  for (const name of passRequest[family]) {
    const value = client[name];
    if (typeof value === "string") headers[name] = value;
  }
  if (family === "ANTHROPIC") {
    const version = client["anthropic-version"];
    headers["anthropic-version"] =
      typeof version === "string" && /^\d{4}-\d{2}-\d{2}$/.test(version)
        ? version
        : ANTHROPIC_VERSION;
    headers["x-api-key"] = providerKey;
  } else {
    headers.authorization = `Bearer ${providerKey}`;
  }
  return headers;
}

/** Response headers the client may see. Length and encoding are set by our own server. */
const passResponse = new Set([
  "content-type",
  "retry-after",
  "request-id",
  "x-request-id",
  "openai-processing-ms",
]);

export function clientResponseHeaders(upstream: IncomingHttpHeaders): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const name of passResponse) {
    const value = upstream[name];
    if (typeof value === "string") out[name] = value;
  }
  if (String(out["content-type"] ?? "").startsWith("text/event-stream")) {
    out["cache-control"] = "no-cache";
    // Tell buffering reverse proxies in front of the gateway to pass events through at once.
    out["x-accel-buffering"] = "no";
  }
  return out;
}

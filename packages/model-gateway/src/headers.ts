// Headers are rebuilt, never copied (C24, C14): upstream gets only an allowlist of the
// client's headers plus the provider key; the client's own Authorization / x-api-key (the run
// token) never leaves the gateway. Response headers are filtered the same way, so nothing the
// provider says about the key or the account reaches the agent loop.
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from "node:http";
import { AppError } from "@secondshift/errors";
import type { ProviderFamily } from "./routes.ts";

const ANTHROPIC_VERSION = "2023-06-01";

/**
 * The `anthropic-beta` values forwarded: those the client asked for, each of which must be on
 * the operator's list (GATEWAY_ANTHROPIC_BETA, default empty). Betas switch on provider-side
 * features (server tools, files, MCP connectors, larger outputs), so an unlisted one is a 400,
 * not silently dropped: the caller learns at once why its request is not what it expected.
 */
export function anthropicBetas(
  client: IncomingHttpHeaders,
  allowed: ReadonlySet<string>,
): string | null {
  const header = client["anthropic-beta"];
  if (header === undefined) return null;
  const asked = (Array.isArray(header) ? header.join(",") : header)
    .split(",")
    .map((v) => v.trim())
    .filter(Boolean);
  const refused = asked.find((v) => !allowed.has(v));
  if (refused !== undefined) {
    throw new AppError(
      "BAD_REQUEST",
      `The anthropic-beta value "${refused.slice(0, 100)}" is not enabled on this gateway; drop it, or ask the operator to add it to GATEWAY_ANTHROPIC_BETA.`,
      { reason: "ANTHROPIC_BETA_NOT_ALLOWED" },
    );
  }
  return asked.length > 0 ? [...new Set(asked)].join(",") : null;
}

/**
 * Upstream request headers, built from scratch. `beta` is the checked `anthropic-beta` value
 * (see anthropicBetas); no other client header is copied.
 */
export function upstreamHeaders(
  family: ProviderFamily,
  client: IncomingHttpHeaders,
  providerKey: string,
  beta: string | null = null,
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
  if (family === "ANTHROPIC") {
    if (beta !== null) headers["anthropic-beta"] = beta;
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

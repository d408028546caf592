// The fixed list of provider paths the gateway forwards (C16). Matching is exact on the raw
// path: no prefix match, no normalisation, so `/v1/messages/../models` or `/v1//messages` are
// simply not on the list. Each route belongs to one wire format and only reaches a provider of
// that kind.

export type ProviderFamily = "ANTHROPIC" | "OPENAI";
export type WireFormat =
  "anthropic-messages" | "anthropic-count-tokens" | "openai-chat" | "openai-responses";

export interface Route {
  path: string;
  family: ProviderFamily;
  format: WireFormat;
  /** Whether the call generates tokens and therefore reserves and settles budget. */
  metered: boolean;
  /** The request field that bounds output tokens (capped to what the budget has left). */
  maxTokensField: string | null;
}

export const routes: readonly Route[] = [
  {
    path: "/v1/messages",
    family: "ANTHROPIC",
    format: "anthropic-messages",
    metered: true,
    maxTokensField: "max_tokens",
  },
  {
    path: "/v1/messages/count_tokens",
    family: "ANTHROPIC",
    format: "anthropic-count-tokens",
    metered: false,
    maxTokensField: null,
  },
  {
    path: "/v1/chat/completions",
    family: "OPENAI",
    format: "openai-chat",
    metered: true,
    maxTokensField: "max_completion_tokens",
  },
  {
    path: "/v1/responses",
    family: "OPENAI",
    format: "openai-responses",
    metered: true,
    maxTokensField: "max_output_tokens",
  },
];

const byPath = new Map(routes.map((r) => [r.path, r]));

/** The route for a request, or undefined (→ 404, no upstream request). Only POST is forwarded. */
export function matchRoute(method: string | undefined, url: string | undefined): Route | undefined {
  if (method !== "POST" || url === undefined) return undefined;
  // The query string is never forwarded; the path must match exactly.
  const q = url.indexOf("?");
  return byPath.get(q === -1 ? url : url.slice(0, q));
}

/**
 * The upstream URL: the provider's base URL (set by the workspace owner or operator, never by a
 * request) joined with the route's path. A base ending in `/v1` (the usual OpenAI-compatible
 * form, e.g. `http://ollama.internal:11434/v1`) is not doubled.
 */
export function upstreamUrl(baseUrl: string, route: Route): string {
  let base = baseUrl.replace(/\/+$/, "");
  if (base.endsWith("/v1")) base = base.slice(0, -3);
  return base + route.path;
}

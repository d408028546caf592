// What the gateway reads from (and changes in) a request body: the stream flag, the output
// bound, the number of choices, and an input-token estimate. Every body is parsed strictly
// (json-body.ts), checked for provider-side capabilities (capabilities.ts), and forwarded as
// the gateway's own serialisation of what it checked. Bodies are never logged.
import { AppError } from "@secondshift/errors";
import { refuseProviderCapabilities } from "./capabilities.ts";
import { parseJsonObject } from "./json-body.ts";
import type { Route } from "./routes.ts";

export interface InspectedRequest {
  json: Record<string, unknown>;
  /** The body as the gateway serialises it, before the gateway's own changes. */
  canonical: string;
  stream: boolean;
  /** Upper-bound guess of input tokens (see estimateInputTokens). */
  inputEstimate: number;
  /** The output bound per choice the client asked for, or the gateway default when it set none. */
  requestedOutput: number;
  /** The body field that carries the output bound for this request. */
  outputField: string | null;
  /** Completions generated (OpenAI chat `n`, else 1): each may use the whole output bound. */
  choices: number;
}

/** OpenAI's own upper limit for `n`. */
export const MAX_CHOICES = 128;

/**
 * Input estimate: one token per 3 bytes of the JSON body as forwarded, rounded up. Tokenizers
 * of the supported providers average 3.5–4.5 bytes per token on English and code, and the JSON
 * envelope (keys, quotes, escapes, role names) adds bytes that are never tokens, so this is
 * conservative for text. Settlement always records the provider's reported usage, so an
 * underestimate (unusual scripts, dense base64) can only overshoot by that request's error.
 */
export function estimateInputTokens(bodyBytes: number): number {
  return Math.ceil(bodyBytes / 3);
}

const badRequest = (message: string, reason: string) =>
  new AppError("BAD_REQUEST", message, { reason });

function outputFieldFor(route: Route, json: Record<string, unknown>): string | null {
  if (route.maxTokensField === null) return null;
  // OpenAI chat accepts the legacy `max_tokens` too; cap whichever the client used.
  if (
    route.format === "openai-chat" &&
    json.max_completion_tokens === undefined &&
    json.max_tokens !== undefined
  ) {
    return "max_tokens";
  }
  return route.maxTokensField;
}

const isCount = (v: unknown, max: number) =>
  typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= max;

function choicesOf(route: Route, json: Record<string, unknown>): number {
  if (route.format !== "openai-chat" || json.n === undefined || json.n === null) return 1;
  if (!isCount(json.n, MAX_CHOICES)) {
    throw badRequest(`n must be a whole number from 1 to ${MAX_CHOICES}.`, "INVALID_N");
  }
  return json.n as number;
}

function requestedOutputOf(
  json: Record<string, unknown>,
  field: string | null,
  fallback: number,
): number {
  if (field === null) return 0;
  const asked = json[field];
  if (asked === undefined) return fallback;
  if (!isCount(asked, Number.MAX_SAFE_INTEGER)) {
    throw badRequest(`${field} must be a positive whole number.`, "INVALID_MAX_TOKENS");
  }
  return asked as number;
}

export function inspectRequest(
  route: Route,
  raw: Buffer,
  defaultMaxOutputTokens: number,
  allowedProviderTools: ReadonlySet<string>,
): InspectedRequest {
  const json = parseJsonObject(raw);
  if (json.stream !== undefined && typeof json.stream !== "boolean") {
    throw badRequest("stream must be true or false.", "INVALID_STREAM");
  }
  refuseProviderCapabilities(route.format, json, allowedProviderTools);
  const outputField = outputFieldFor(route, json);
  const canonical = JSON.stringify(json);
  return {
    json,
    canonical,
    stream: json.stream === true,
    inputEstimate: route.metered ? estimateInputTokens(Buffer.byteLength(canonical)) : 0,
    requestedOutput: requestedOutputOf(json, outputField, defaultMaxOutputTokens),
    outputField,
    choices: choicesOf(route, json),
  };
}

/**
 * The body sent upstream: always the gateway's serialisation (never the client's bytes), with
 * the output bound set to what was reserved (capped, or set when the client gave none, so that
 * output can never exceed the reservation) and, for streamed OpenAI chat,
 * `stream_options.include_usage` (without it the stream carries no usage to settle on).
 */
export function upstreamBody(route: Route, req: InspectedRequest, grantedOutput: number): Buffer {
  let changed = false;
  const json = req.json;
  // OpenAI chat: a client that sent both bounds gets both capped, so neither can exceed it.
  const fields =
    route.format === "openai-chat"
      ? ["max_completion_tokens", "max_tokens"].filter((f) => json[f] !== undefined)
      : [];
  if (req.outputField !== null && !fields.includes(req.outputField)) fields.push(req.outputField);
  for (const field of fields) {
    if (json[field] === grantedOutput) continue;
    json[field] = grantedOutput;
    changed = true;
  }
  if (route.format === "openai-chat" && req.stream) {
    const options = json.stream_options;
    const current =
      typeof options === "object" && options !== null ? (options as Record<string, unknown>) : {};
    if (current.include_usage !== true) {
      json.stream_options = { ...current, include_usage: true };
      changed = true;
    }
  }
  return Buffer.from(changed ? JSON.stringify(json) : req.canonical, "utf8");
}

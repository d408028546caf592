// What the gateway reads from (and changes in) a request body: the stream flag, the output
// bound, and an input-token estimate. Only metered routes are parsed; bodies are never logged.
import { AppError } from "@secondshift/errors";
import type { Route } from "./routes.ts";

export interface InspectedRequest {
  json: Record<string, unknown>;
  stream: boolean;
  /** Upper-bound guess of input tokens (see estimateInputTokens). */
  inputEstimate: number;
  /** The output bound the client asked for, or the gateway default when it set none. */
  requestedOutput: number;
  /** The body field that carries the output bound for this request. */
  outputField: string | null;
}

/**
 * Input estimate: one token per 3 bytes of the whole JSON body, rounded up. Tokenizers of the
 * supported providers average 3.5–4.5 bytes per token on English and code, and the JSON
 * envelope (keys, quotes, escapes, role names) adds bytes that are never tokens, so this is
 * conservative for text. Settlement always records the provider's reported usage, so an
 * underestimate (unusual scripts, dense base64) can only overshoot by that request's error.
 */
export function estimateInputTokens(bodyBytes: number): number {
  return Math.ceil(bodyBytes / 3);
}

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

export function inspectRequest(
  route: Route,
  raw: Buffer,
  defaultMaxOutputTokens: number,
): InspectedRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString("utf8"));
  } catch {
    throw new AppError("BAD_REQUEST", "The request body is not valid JSON.", {
      reason: "INVALID_JSON",
    });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new AppError("BAD_REQUEST", "The request body must be a JSON object.", {
      reason: "INVALID_JSON",
    });
  }
  const json = parsed as Record<string, unknown>;
  const outputField = outputFieldFor(route, json);
  let requestedOutput = 0;
  if (outputField !== null) {
    const asked = json[outputField];
    if (
      asked !== undefined &&
      (typeof asked !== "number" || !Number.isInteger(asked) || asked < 1)
    ) {
      throw new AppError("BAD_REQUEST", `${outputField} must be a positive whole number.`, {
        reason: "INVALID_MAX_TOKENS",
      });
    }
    requestedOutput = asked ?? defaultMaxOutputTokens;
  }
  return {
    json,
    stream: json.stream === true,
    inputEstimate: route.metered ? estimateInputTokens(raw.length) : 0,
    requestedOutput,
    outputField,
  };
}

/**
 * The body sent upstream. It is re-serialised only when something changed: the output bound
 * (capped to the reservation, or set when the client gave none, so that output can never
 * exceed what was reserved) and, for streamed OpenAI chat, `stream_options.include_usage`
 * (without it the stream carries no usage to settle on).
 */
export function upstreamBody(
  route: Route,
  raw: Buffer,
  req: InspectedRequest,
  grantedOutput: number,
): Buffer {
  let changed = false;
  const json = req.json;
  if (req.outputField !== null && json[req.outputField] !== grantedOutput) {
    json[req.outputField] = grantedOutput;
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
  return changed ? Buffer.from(JSON.stringify(json), "utf8") : raw;
}

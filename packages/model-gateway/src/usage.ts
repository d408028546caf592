// Usage as the providers report it, turned into what the budget counts: input + output + cache
// tokens, each counted once. Anthropic reports cache tokens beside input_tokens; OpenAI counts
// cached tokens inside prompt/input tokens, so they are moved out of `input` here.
import type { Charge } from "./budget.ts";
import type { WireFormat } from "./routes.ts";

type Obj = Record<string, unknown>;
const num = (v: unknown): number =>
  typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;
const obj = (v: unknown): Obj | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;

export function anthropicCharge(usage: Obj): Charge {
  return {
    input: num(usage.input_tokens),
    output: num(usage.output_tokens),
    cache: num(usage.cache_creation_input_tokens) + num(usage.cache_read_input_tokens),
  };
}

export function openaiChatCharge(usage: Obj): Charge {
  const cached = num(obj(usage.prompt_tokens_details)?.cached_tokens);
  return {
    input: Math.max(num(usage.prompt_tokens) - cached, 0),
    output: num(usage.completion_tokens),
    cache: cached,
  };
}

export function openaiResponsesCharge(usage: Obj): Charge {
  const cached = num(obj(usage.input_tokens_details)?.cached_tokens);
  return {
    input: Math.max(num(usage.input_tokens) - cached, 0),
    output: num(usage.output_tokens),
    cache: cached,
  };
}

/** Usage from a complete (non-streamed) JSON response body; null when it has none. */
export function chargeFromJson(format: WireFormat, body: unknown): Charge | null {
  const usage = obj(obj(body)?.usage);
  if (!usage) return null;
  switch (format) {
    case "anthropic-messages":
      return anthropicCharge(usage);
    case "openai-chat":
      return openaiChatCharge(usage);
    case "openai-responses":
      return openaiResponsesCharge(usage);
    case "anthropic-count-tokens":
      return null;
  }
}

/**
 * Folds one SSE event's JSON into the usage seen so far. Returns the new state: `final` is
 * set once the provider has sent the usage that settles the call.
 * - Anthropic: `message_start` carries input and cache usage; every `message_delta` carries
 *   *cumulative* usage (output so far, and in newer API versions input/cache too), so later
 *   values replace earlier ones and are never summed.
 * - OpenAI chat: the last chunk (choices: []) carries `usage` when include_usage is set.
 * - OpenAI responses: `response.completed` (or `.incomplete` / `.failed`) carries `response.usage`.
 */
export interface StreamUsage {
  anthropic: Obj;
  final: Charge | null;
}

export function foldEvent(format: WireFormat, state: StreamUsage, event: Obj): void {
  if (format === "anthropic-messages") {
    if (event.type === "message_start") {
      const usage = obj(obj(event.message)?.usage);
      if (usage) Object.assign(state.anthropic, usage);
    } else if (event.type === "message_delta") {
      const usage = obj(event.usage);
      if (usage) {
        for (const [k, v] of Object.entries(usage))
          if (v !== null && v !== undefined) state.anthropic[k] = v;
        state.final = anthropicCharge(state.anthropic);
      }
    }
  } else if (format === "openai-chat") {
    const usage = obj(event.usage);
    if (usage) state.final = openaiChatCharge(usage);
  } else if (format === "openai-responses") {
    const type = event.type;
    if (
      type === "response.completed" ||
      type === "response.incomplete" ||
      type === "response.failed"
    ) {
      const usage = obj(obj(event.response)?.usage);
      if (usage) state.final = openaiResponsesCharge(usage);
    }
  }
}

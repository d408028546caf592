// Maps a failed model call to how the run ends. The gateway signals a used-up budget with HTTP
// 402, or 429 with reason BUDGET_EXHAUSTED in its JSON body; 401 means the run token is no longer
// accepted. Both SDKs expose `status` and the parsed body (Anthropic: the whole body, OpenAI: its
// `error` member), so the reason is looked up in either shape.
import { APIConnectionError as AnthropicConnectionError } from "@anthropic-ai/sdk";
import { APIConnectionError as OpenAIConnectionError } from "openai";
import { StopRun } from "../stop.ts";

const BUDGET_REASON = "BUDGET_EXHAUSTED";

interface SdkErrorShape {
  status?: unknown;
  error?: unknown;
  message?: unknown;
}

function field(value: unknown, key: string): unknown {
  return typeof value === "object" && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** Every `reason` / `code` / `type` string in the body and its nested `error` object. */
function bodyReasons(body: unknown): string[] {
  const places = [body, field(body, "error")];
  return places.flatMap((place) =>
    ["reason", "code", "type"]
      .map((key) => field(place, key))
      .filter((v): v is string => typeof v === "string"),
  );
}

export function classifyModelError(error: unknown): StopRun {
  const shape = (typeof error === "object" && error !== null ? error : {}) as SdkErrorShape;
  const status = typeof shape.status === "number" ? shape.status : undefined;
  const reasons = bodyReasons(shape.error).map((r) => r.toUpperCase());
  if (
    status === 402 ||
    (status === 429 && reasons.includes(BUDGET_REASON)) ||
    reasons.includes(BUDGET_REASON)
  ) {
    return new StopRun("budget_exhausted", "The run's model token budget is used up.");
  }
  if (status === 401) {
    return new StopRun(
      "failed",
      "The model gateway no longer accepts this run's token (it was revoked or expired). Start the run again.",
    );
  }
  if (status === 403) {
    return new StopRun(
      "failed",
      "The model gateway refused the request (forbidden). Check the workspace's model provider settings.",
    );
  }
  if (status === undefined) {
    const message = typeof shape.message === "string" ? shape.message : "unknown error";
    // Network failures and timeouts are APIConnectionError (or its timeout subclass) in both SDKs.
    const unreachable =
      error instanceof AnthropicConnectionError || error instanceof OpenAIConnectionError;
    return new StopRun(
      "failed",
      unreachable
        ? `The model gateway could not be reached: ${message}`
        : `The model call failed: ${message}`,
    );
  }
  const detail =
    typeof field(field(shape.error, "error"), "message") === "string"
      ? String(field(field(shape.error, "error"), "message"))
      : typeof field(shape.error, "message") === "string"
        ? String(field(shape.error, "message"))
        : "no details";
  return new StopRun("failed", `The model call failed with HTTP ${status}: ${detail}`);
}

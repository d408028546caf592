// The provider-neutral view of a conversation. Each adapter keeps the history in its own wire
// format (so assistant turns are echoed back exactly as the provider sent them) and exposes
// only these operations to the loop.
import type { ToolCall } from "../tools/toolbox.ts";
import type { Usage } from "../types.ts";

export interface ModelTurn {
  /** The assistant's text in this turn (the final answer when there are no tool calls). */
  text: string;
  toolCalls: ToolCall[];
  /** The provider's own stop / finish reason, for the transcript. */
  stopReason: string;
  usage: Usage;
}

export interface ToolResultMessage {
  callId: string;
  text: string;
  isError: boolean;
}

export interface ModelSession {
  /** One model call with the history so far; the turn is added to the history. */
  next(signal: AbortSignal): Promise<ModelTurn>;
  /** Answers every tool call of the last turn, in order. */
  addToolResults(results: ToolResultMessage[]): void;
}

/** Both SDKs are built with the same limits: one retry (the gateway is on our network), no env. */
export const SDK_MAX_RETRIES = 1;

export function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

// Anthropic messages API through the gateway: system section in `system`, the task as the first
// user message, tool results as `tool_result` blocks in the next user message.
import Anthropic from "@anthropic-ai/sdk";
import type { ToolSpec } from "../tools/builtin.ts";
import type { ToolCall } from "../tools/toolbox.ts";
import type { ModelConfig } from "../types.ts";
import {
  SDK_MAX_RETRIES,
  trimSlash,
  type ModelSession,
  type ModelTurn,
  type ToolResultMessage,
} from "./session.ts";

export function createAnthropicSession(
  config: ModelConfig,
  system: string,
  task: string,
  tools: ToolSpec[],
): ModelSession {
  // apiKey given explicitly, so the SDK reads no credential from the environment (webhookKey:
  // null for the same reason); C14: baseURL is always the gateway. Logging off: the SDK must not
  // print requests to the worker's console.
  const client = new Anthropic({
    apiKey: config.runToken,
    webhookKey: null,
    baseURL: trimSlash(config.baseUrl),
    maxRetries: SDK_MAX_RETRIES,
    logLevel: "off",
  });
  const messages: Anthropic.MessageParam[] = [{ role: "user", content: task }];
  const toolParams: Anthropic.Tool[] = tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.inputSchema as Anthropic.Tool.InputSchema,
  }));

  return {
    async next(signal): Promise<ModelTurn> {
      const response = await client.messages.create(
        {
          model: config.model,
          max_tokens: config.maxOutputTokens ?? 8192,
          system,
          messages,
          ...(toolParams.length > 0 ? { tools: toolParams } : {}),
        },
        { signal },
      );
      messages.push({ role: "assistant", content: response.content });
      const text = response.content
        .flatMap((block) => (block.type === "text" ? [block.text] : []))
        .join("\n");
      const toolCalls: ToolCall[] = response.content.flatMap((block) =>
        block.type === "tool_use" ? [{ id: block.id, name: block.name, args: block.input }] : [],
      );
      const usage = response.usage;
      return {
        text,
        toolCalls,
        stopReason: response.stop_reason ?? "unknown",
        usage: {
          // Cached input is still input the run paid for.
          inputTokens:
            usage.input_tokens +
            (usage.cache_creation_input_tokens ?? 0) +
            (usage.cache_read_input_tokens ?? 0),
          outputTokens: usage.output_tokens,
        },
      };
    },
    addToolResults(results: ToolResultMessage[]) {
      messages.push({
        role: "user",
        content: results.map((r) => ({
          type: "tool_result",
          tool_use_id: r.callId,
          content: r.text,
          is_error: r.isError,
        })),
      });
    },
  };
}

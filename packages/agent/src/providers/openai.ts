// OpenAI chat completions through the gateway: the system section as the system message, the
// task as the first user message, one `role: "tool"` message per tool call.
import OpenAI from "openai";
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

export function createOpenAISession(
  config: ModelConfig,
  system: string,
  task: string,
  tools: ToolSpec[],
): ModelSession {
  // Every credential-like option is set explicitly so nothing is read from the worker's
  // environment (OPENAI_ORG_ID, OPENAI_ADMIN_KEY…); C14: baseURL is always the gateway.
  const client = new OpenAI({
    apiKey: config.runToken,
    adminAPIKey: null,
    organization: null,
    project: null,
    webhookSecret: null,
    baseURL: `${trimSlash(config.baseUrl)}/v1`,
    maxRetries: SDK_MAX_RETRIES,
    logLevel: "off",
  });
  const messages: OpenAI.ChatCompletionMessageParam[] = [
    { role: "system", content: system },
    { role: "user", content: task },
  ];
  const toolParams: OpenAI.ChatCompletionTool[] = tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.inputSchema },
  }));

  return {
    async next(signal): Promise<ModelTurn> {
      const response = await client.chat.completions.create(
        {
          model: config.model,
          messages,
          // No tools (the threat review): the field is left out, an empty list is refused.
          ...(toolParams.length > 0 ? { tools: toolParams } : {}),
          ...(config.maxOutputTokens === undefined
            ? {}
            : { max_completion_tokens: config.maxOutputTokens }),
        },
        { signal },
      );
      const choice = response.choices[0];
      if (!choice) throw new Error("The model returned no choices.");
      const message = choice.message;
      const calls = message.tool_calls ?? [];
      // Echo the assistant turn back with only the fields the API accepts on input.
      messages.push({
        role: "assistant",
        content: message.content,
        ...(calls.length ? { tool_calls: calls } : {}),
      });
      const toolCalls: ToolCall[] = calls.map((call) => {
        if (call.type !== "function")
          return {
            id: call.id,
            name: call.custom.name,
            args: undefined,
            parseError: "custom tools are not supported",
          };
        return {
          id: call.id,
          name: call.function.name,
          ...parseArguments(call.function.arguments),
        };
      });
      return {
        text: message.content ?? "",
        toolCalls,
        stopReason: choice.finish_reason,
        usage: {
          inputTokens: response.usage?.prompt_tokens ?? 0,
          outputTokens: response.usage?.completion_tokens ?? 0,
        },
      };
    },
    addToolResults(results: ToolResultMessage[]) {
      // Chat completions has no error flag on tool messages; the text says so instead.
      for (const r of results) {
        messages.push({
          role: "tool",
          tool_call_id: r.callId,
          content: r.isError ? `Error:\n${r.text}` : r.text,
        });
      }
    },
  };
}

/** Function arguments arrive as a JSON string the model wrote; it may not parse. */
function parseArguments(raw: string): { args: unknown; parseError?: string } {
  if (raw.trim() === "") return { args: {} };
  try {
    return { args: JSON.parse(raw) as unknown };
  } catch (error) {
    return { args: undefined, parseError: error instanceof Error ? error.message : "invalid JSON" };
  }
}

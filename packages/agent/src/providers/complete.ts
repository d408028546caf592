// One model call with no tools, in the provider's wire format, through the same SDK clients as
// the agent loop (the gateway as base URL, the run token as the only credential): the finalize
// threat review's request. A failure is rethrown with the loop's readable message (budget used
// up, token revoked, gateway unreachable).
import type { ModelConfig, Usage } from "../types.ts";
import { createAnthropicSession } from "./anthropic.ts";
import { classifyModelError } from "./errors.ts";
import { createOpenAISession } from "./openai.ts";

export interface CompleteRequest {
  system: string;
  user: string;
  signal?: AbortSignal;
}

export async function completeOnce(
  config: ModelConfig,
  request: CompleteRequest,
): Promise<{ text: string; usage: Usage }> {
  const createSession =
    config.provider === "anthropic" ? createAnthropicSession : createOpenAISession;
  const session = createSession(config, request.system, request.user, []);
  try {
    const turn = await session.next(request.signal ?? new AbortController().signal);
    return { text: turn.text, usage: turn.usage };
  } catch (error) {
    throw new Error(classifyModelError(error).message, { cause: error });
  }
}

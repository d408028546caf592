// The agent loop: model turn → tool calls → tool results → next turn, until the model gives a
// final answer or the run must stop (turns, deadline, cancel, budget, revocation). Everything
// that can end a run early arrives as a StopRun; everything recorded passes the masker.
import { createAnthropicSession } from "./providers/anthropic.ts";
import { classifyModelError } from "./providers/errors.ts";
import { createOpenAISession } from "./providers/openai.ts";
import type { ModelSession } from "./providers/session.ts";
import { SYSTEM_SECTION, taskMessage } from "./prompt.ts";
import { isStopRun, StopRun, stopForAbort } from "./stop.ts";
import { Toolbox } from "./tools/toolbox.ts";
import { Transcript } from "./transcript.ts";
import type { AgentResult, RunAgentOptions, Usage } from "./types.ts";

const DEFAULT_COMMAND_TIMEOUT_MS = 5 * 60_000;
/** setTimeout overflows above this; a later deadline simply gets no timer. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function runAgent(options: RunAgentOptions): Promise<AgentResult> {
  const { limits, masker } = options;
  // From here on the token is masked in every event, error and (through the shared masker)
  // every log line of the worker.
  masker.add(options.model.runToken);
  const transcript = new Transcript(options.events, masker);
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };

  const deadlineController = new AbortController();
  const msLeft = limits.deadline.getTime() - Date.now();
  const timer =
    msLeft <= MAX_TIMER_MS
      ? setTimeout(() => deadlineController.abort(), Math.max(0, msLeft))
      : undefined;
  const signal = AbortSignal.any([limits.signal, deadlineController.signal]);

  let result: AgentResult;
  try {
    const summary = await loop(options, transcript, usage, signal);
    result = { outcome: "succeeded", summary: masker.mask(summary), usage };
  } catch (error) {
    const stop = signal.aborted ? stopForAbort(limits.signal, limits.deadline) : toStop(error);
    result = { outcome: stop.outcome, error: masker.mask(stop.message), usage };
    await transcript.appendQuietly("error", { outcome: stop.outcome, message: stop.message });
  } finally {
    clearTimeout(timer);
  }
  await transcript.appendQuietly("agent_finished", {
    outcome: result.outcome,
    usage: { ...usage },
    ...(result.error ? { error: result.error } : {}),
  });
  return result;
}

function toStop(error: unknown): StopRun {
  if (isStopRun(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new StopRun("failed", `The agent loop failed: ${message}`);
}

async function loop(
  options: RunAgentOptions,
  transcript: Transcript,
  usage: Usage,
  signal: AbortSignal,
): Promise<string> {
  const { limits, model } = options;
  // The deadline is also checked by the clock: its timer may not have fired yet when a turn
  // starts, and a turn must not start after the deadline.
  const checkSignal = () => {
    if (signal.aborted) throw stopForAbort(limits.signal, limits.deadline);
    if (Date.now() >= limits.deadline.getTime())
      throw new StopRun("timed_out", "The run reached its deadline.");
  };
  checkSignal();
  const toolbox = new Toolbox({
    sandbox: options.sandbox,
    broker: options.broker,
    plan: options.plan,
    ...(options.platformTools ? { platformTools: options.platformTools } : {}),
    masker: options.masker,
    maxToolResultChars: limits.maxToolResultChars,
    commandTimeoutMs: () =>
      Math.min(
        limits.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
        limits.deadline.getTime() - Date.now(),
      ),
  });
  const createSession =
    model.provider === "anthropic" ? createAnthropicSession : createOpenAISession;
  const session: ModelSession = createSession(
    model,
    SYSTEM_SECTION,
    taskMessage(options.prompt),
    toolbox.specs,
  );
  await transcript.append("agent_started", {
    provider: model.provider,
    model: model.model,
    tools: toolbox.specs.map((s) => s.name),
    maxTurns: limits.maxTurns,
  });

  for (let turn = 1; turn <= limits.maxTurns; turn++) {
    checkSignal();
    const reply = await session.next(signal).catch((error: unknown) => {
      throw signal.aborted
        ? stopForAbort(limits.signal, limits.deadline)
        : classifyModelError(error);
    });
    usage.inputTokens += reply.usage.inputTokens;
    usage.outputTokens += reply.usage.outputTokens;
    await transcript.append("model_turn", {
      turn,
      text: reply.text,
      stopReason: reply.stopReason,
      toolCalls: reply.toolCalls.map((c) => ({
        id: c.id,
        name: c.name,
        arguments: c.args ?? null,
      })),
      usage: reply.usage,
    });
    if (reply.toolCalls.length === 0) {
      await transcript.append("final_answer", { summary: reply.text });
      return reply.text;
    }
    // No model turn is left to read the results, so the calls are not run.
    if (turn === limits.maxTurns) break;

    const results = [];
    for (const call of reply.toolCalls) {
      checkSignal();
      await transcript.append("tool_call", {
        turn,
        callId: call.id,
        name: call.name,
        arguments: call.args ?? null,
        ...(call.parseError === undefined ? {} : { argumentsError: call.parseError }),
      });
      const result = await toolbox.execute(call, signal);
      await transcript.append("tool_result", {
        turn,
        callId: call.id,
        name: result.resolvedName ?? null,
        isError: result.isError,
        truncated: result.truncated,
        content: result.text,
      });
      results.push({ callId: call.id, text: result.text, isError: result.isError });
    }
    session.addToolResults(results);
  }
  throw new StopRun(
    "max_turns",
    `The run used all ${limits.maxTurns} model turns without a final answer.`,
  );
}

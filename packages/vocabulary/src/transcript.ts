// A run's transcript: every event type, who writes it, and its payload's shape, in one place.
// Writers are typed by `TranscriptPayload<T>` (the agent loop, the executor, the lifecycle's
// status events); readers (the API's live stream, the run page) narrow a stored row with
// `readTranscriptEvent`, because a stored payload is JSON that may predate this code.
import * as z from "zod/mini";
import { AGENT_OUTCOMES } from "./agent-outcomes.ts";
import { isFinal, RUN_STATUSES } from "./run-status.ts";
import { TRANSITION_NAMES } from "./transitions.ts";

const usage = z.object({ inputTokens: z.number(), outputTokens: z.number() });
/** Whatever the model sent as a call's arguments (not always an object: see argumentsError). */
const callArguments = z.unknown();

/** Each event type's payload, as its writer stores it (masked by the writer, P02). */
export const TRANSCRIPT_PAYLOADS = {
  /** The lifecycle: the run's status changed, or a cancel was requested while it runs. */
  status: z.object({
    status: z.enum(RUN_STATUSES),
    transition: z.optional(z.enum(TRANSITION_NAMES)),
    error: z.optional(z.string()),
    cancelRequested: z.optional(z.literal(true)),
  }),
  /** The executor: the checkout is in the sandbox, the plan frozen; the agent starts next. */
  run_started: z.object({ commit: z.string(), tools: z.array(z.string()), model: z.string() }),
  /** The agent loop, before its first model turn. */
  agent_started: z.object({
    provider: z.string(),
    model: z.string(),
    tools: z.array(z.string()),
    maxTurns: z.number(),
  }),
  /** One model call: its text and the tool calls it asks for. */
  model_turn: z.object({
    turn: z.number(),
    text: z.string(),
    stopReason: z.string(),
    toolCalls: z.array(z.object({ id: z.string(), name: z.string(), arguments: callArguments })),
    usage,
  }),
  tool_call: z.object({
    turn: z.number(),
    callId: z.string(),
    name: z.string(),
    arguments: callArguments,
    /** Set when the model's arguments were not valid JSON. */
    argumentsError: z.optional(z.string()),
  }),
  tool_result: z.object({
    turn: z.number(),
    callId: z.string(),
    /** The plan tool the call resolved to; null when it resolved to none. */
    name: z.nullable(z.string()),
    isError: z.boolean(),
    truncated: z.boolean(),
    content: z.string(),
  }),
  final_answer: z.object({ summary: z.string() }),
  /** The agent loop stopped early (with its outcome), or an executor step failed (without). */
  error: z.object({ message: z.string(), outcome: z.optional(z.enum(AGENT_OUTCOMES)) }),
  agent_finished: z.object({
    outcome: z.enum(AGENT_OUTCOMES),
    usage,
    error: z.optional(z.string()),
  }),
  /** The executor, after the lifecycle recorded the result (after the final status event). */
  run_finished: z.object({ status: z.enum(RUN_STATUSES), error: z.optional(z.string()) }),
  /** A plain line of text; no component writes it yet, the transcript tests stream it. */
  message: z.object({ text: z.string() }),
};

export type TranscriptEventType = keyof typeof TRANSCRIPT_PAYLOADS;

export type TranscriptPayload<T extends TranscriptEventType> = z.infer<
  (typeof TRANSCRIPT_PAYLOADS)[T]
>;

/** The events the agent loop writes (packages/agent). */
export const AGENT_EVENT_TYPES = [
  "agent_started",
  "model_turn",
  "tool_call",
  "tool_result",
  "error",
  "final_answer",
  "agent_finished",
] as const satisfies readonly TranscriptEventType[];

export type AgentEventType = (typeof AGENT_EVENT_TYPES)[number];

/** The events the run executor writes around the agent loop's (packages/runs). */
export const EXECUTOR_EVENT_TYPES = [
  "run_started",
  "run_finished",
  "error",
] as const satisfies readonly TranscriptEventType[];

export type ExecutorEventType = (typeof EXECUTOR_EVENT_TYPES)[number];

/** The one event the lifecycle writes, in the same statement as each status change. */
export const STATUS_EVENT_TYPE = "status" satisfies TranscriptEventType;

export type TranscriptEventOf<T extends TranscriptEventType> = {
  type: T;
  payload: TranscriptPayload<T>;
};

export type TranscriptEvent = {
  [T in TranscriptEventType]: TranscriptEventOf<T>;
}[TranscriptEventType];

/** A stored event of a type this code does not know, or whose payload is not its type's shape. */
export interface OtherEvent {
  type: "other";
  storedType: string;
  payload: unknown;
}

export type ReadTranscriptEvent = TranscriptEvent | OtherEvent;

function isTranscriptEventType(type: string): type is TranscriptEventType {
  return Object.hasOwn(TRANSCRIPT_PAYLOADS, type);
}

/** Narrows a stored event (type and JSON payload) to its typed form, or to `other`. */
export function readTranscriptEvent(type: string, payload: unknown): ReadTranscriptEvent {
  if (isTranscriptEventType(type)) {
    const parsed = TRANSCRIPT_PAYLOADS[type].safeParse(payload);
    if (parsed.success) return { type, payload: parsed.data } as TranscriptEvent;
  }
  return { type: "other", storedType: type, payload };
}

/** The status event that ends a run's transcript (what is written after it is not streamed). */
export function isFinalStatusEvent(event: ReadTranscriptEvent): boolean {
  return event.type === "status" && isFinal(event.payload.status);
}

// The agent loop's ports: small interfaces the worker wires to the tool broker and the run-event
// store; the sandbox is packages/sandbox's RunSandbox, the one sandbox interface (type only).
// The loop depends on nothing else, so it can be tested with fakes and a scripted model server,
// and the other packages can change behind these shapes.
import type { SecretMasker } from "@secondshift/logging";
import type { RunSandbox } from "@secondshift/sandbox";
import type { AgentEventType, AgentOutcome, TranscriptEventOf } from "@secondshift/vocabulary";

// The loop's event names, payloads and outcomes are the vocabulary's (the web app reads them).
export type { AgentEventType, AgentOutcome };

export interface BrokerResult {
  content: Array<{ type: "text"; text: string }>;
  isError: boolean;
  truncated: boolean;
}

export interface BrokerPort {
  /**
   * Calls a tool of the run's frozen plan by its plan name; without `context`, a platform tool
   * by its exact name. Refusals throw an AppError whose
   * reason GRANT_REVOKED / CONNECTION_REMOVED / REQUEST_CHANGED / TOOL_NOT_ALLOWED ends the run
   * as revoked, and AUDIT_UNAVAILABLE (the call could not be audited) as failed. The connection id is
   * passed so a plan with the same tool name on two connections stays unambiguous.
   */
  call(
    toolName: string,
    args: Record<string, unknown>,
    context?: { connectionId: string },
  ): Promise<BrokerResult>;
}

/** One tool of the frozen execution plan, as snapshotted at run start. */
export interface PlanTool {
  connectionId: string;
  connectionKind: string;
  tool: string;
  inputSchema: Record<string, unknown>;
  mayChangeData: boolean;
  /** Optional readable connection label, used only to build the model-facing tool name. */
  label?: string;
  /** The tool's own description from the connection: untrusted, shown to the model as such. */
  description?: string;
}

/** One of the events the loop writes, with its payload as the vocabulary types it. */
export type AgentEvent = { [T in AgentEventType]: TranscriptEventOf<T> }[AgentEventType];

export interface EventSink {
  /** Called in order, live, already masked. Awaited, so the store keeps the loop's order. */
  append(event: AgentEvent): void | Promise<void>;
}

export interface ModelConfig {
  provider: "anthropic" | "openai";
  /** The gateway's root URL: it serves `/v1/messages` and `/v1/chat/completions`. */
  baseUrl: string;
  /** The per-run gateway token. Held only by the SDK client; never sent to the sandbox. */
  runToken: string;
  model: string;
  /** Output tokens per model turn (Anthropic requires a value). Default 8192. */
  maxOutputTokens?: number;
}

export interface AgentLimits {
  /** Model calls allowed in the run. */
  maxTurns: number;
  deadline: Date;
  /** Aborted by the worker when someone cancels the run. */
  signal: AbortSignal;
  /** Each tool result is cut to this many characters before it reaches the model. */
  maxToolResultChars: number;
  /** Per shell command; capped by the time left before the deadline. Default 5 minutes. */
  commandTimeoutMs?: number;
}

export interface RunAgentOptions {
  model: ModelConfig;
  /** The job's prompt: the task. It follows the fixed system section and cannot override it. */
  prompt: string;
  /** The run's sandbox; every command the tools run there gets the run's abort signal. */
  sandbox: RunSandbox;
  broker: BrokerPort;
  plan: PlanTool[];
  /** Platform tools the plan grants (name, description, input schema), called by exact name. */
  platformTools?: Array<{
    name: string;
    description: string;
    inputSchema: Record<string, unknown>;
  }>;
  events: EventSink;
  limits: AgentLimits;
  /** Masks every registered secret in events and errors; the run token is added to it. */
  masker: SecretMasker;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface AgentResult {
  outcome: AgentOutcome;
  summary?: string;
  error?: string;
  usage: Usage;
}

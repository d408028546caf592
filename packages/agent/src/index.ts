export { runAgent } from "./run-agent.ts";
export { completeOnce } from "./providers/complete.ts";
export type { CompleteRequest } from "./providers/complete.ts";
export { SYSTEM_END_MARKER, SYSTEM_SECTION, taskMessage } from "./prompt.ts";
export { neutralise, wrapUntrusted } from "./untrusted.ts";
export { MAX_TOOL_NAME, planToolNames } from "./tools/names.ts";
export { BUILTIN_NAMES } from "./tools/builtin.ts";
export type {
  AgentEvent,
  AgentEventType,
  AgentLimits,
  AgentOutcome,
  AgentResult,
  BrokerPort,
  BrokerResult,
  EventSink,
  ModelConfig,
  PlanTool,
  RunAgentOptions,
  Usage,
} from "./types.ts";

export { executeRun } from "./executor.ts";
export type { ExecuteRunResult } from "./executor.ts";
export { statusFor } from "./outcome.ts";
export { issueRunToken, revokeRunTokens } from "./run-token.ts";
export { RunEventStore } from "./event-store.ts";
export type {
  BrokerRunContext,
  PlanFreezer,
  RunBroker,
  RunExecutorDeps,
  RunExecutorLimits,
  SandboxFactory,
  SourceCheckout,
  SourceProvider,
} from "./ports.ts";
export { screenEventRun, SYSTEM_EVENT_SCREEN } from "./event/screen.ts";
export type { ScreenDeps } from "./event/screen.ts";
export { createEventGithub } from "./event/github.ts";
export type { EventGithub, EventRepository, OpenEventGithub } from "./event/github.ts";

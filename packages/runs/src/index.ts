export { executeRun } from "./executor.ts";
export type { ExecuteRunResult } from "./executor.ts";
export { finishRun } from "./finish.ts";
export { statusFor } from "./outcome.ts";
export { issueRunToken, revokeRunTokens } from "./run-token.ts";
export { RunEventStore } from "./event-store.ts";
export { sandboxPort } from "./sandbox-port.ts";
export type {
  BrokerRunContext,
  PlanFreezer,
  RunBroker,
  RunExecutorDeps,
  RunExecutorLimits,
  RunSandbox,
  SandboxFactory,
  SourceCheckout,
  SourceProvider,
} from "./ports.ts";

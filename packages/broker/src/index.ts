export { createBroker } from "./broker.ts";
export { createBrokerMetrics } from "./metrics.ts";
export type { BrokerMetrics } from "./metrics.ts";
export type {
  Broker,
  BrokerLimits,
  BrokerOptions,
  BrokerRun,
  PlatformToolSpec,
  UntrustedToolResult,
} from "./broker.ts";
export { isToolCallError, refusalReasons, ToolCallError } from "./refusals.ts";
export type { RefusalReason } from "./refusals.ts";
export { compileArguments, hardenSchema, validateArguments } from "./arguments.ts";
export { createToolDiscovery, listConnectionTools } from "./discovery.ts";
export type { ListConnectionToolsInput, ToolDiscoveryDeps } from "./discovery.ts";
export { tokenEndpointRefresher } from "./secrets.ts";
export type { OAuthRefresher, RefreshedTokens } from "./secrets.ts";
export { freezePlan, readPlan } from "./plan.ts";
export type { FrozenPlan, PlanEntry } from "./plan.ts";
export { grantedPlatformTools, isPlatformToolName, PLATFORM_TOOL_LIST } from "./platform/tool.ts";
export type { PlatformTool, PlatformToolContext, PlatformToolOutput } from "./platform/tool.ts";
export { commentTargetAllowed } from "./platform/propose.ts";

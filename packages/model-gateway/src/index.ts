export { createGatewayServer } from "./server.ts";
export type { Gateway } from "./server.ts";
export type { GatewayLimits, GatewayOptions, Outbound } from "./options.ts";
export { matchRoute, routes, upstreamUrl } from "./routes.ts";
export type { ProviderFamily, Route, WireFormat } from "./routes.ts";
export { estimateInputTokens } from "./request-body.ts";
export { chargeFromJson } from "./usage.ts";
export { sseUsageTap } from "./usage-tap.ts";
export type { Charge } from "./budget.ts";

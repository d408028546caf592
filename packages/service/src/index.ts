export { fatal, onShutdown, openVerifiedDatabase, outboundPolicy } from "./startup.ts";
export type { DatabaseSettings, OutboundSettings } from "./startup.ts";

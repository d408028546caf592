export { fatal, onShutdown, openVerifiedDatabase, outboundPolicy } from "./startup.ts";
export { emptyWorkFolder } from "./work-folder.ts";
export type { DatabaseSettings, OutboundSettings } from "./startup.ts";

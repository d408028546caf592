export { API_BASE_PATH, createApiHandler, MAX_API_BODY_BYTES } from "./http.ts";
export type { ApiOptions } from "./http.ts";
export type { AppRouter } from "./root.ts";
export { startRunEventListener } from "./run-events/listener.ts";
export type { RunEventListener } from "./run-events/listener.ts";
export { createServerApi, createServerContext } from "./server-caller.ts";
export type { ServerApi, ServerCaller } from "./server-caller.ts";

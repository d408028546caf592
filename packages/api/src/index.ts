export { API_BASE_PATH, API_PATH_PREFIX, createApiHandler, MAX_API_BODY_BYTES } from "./http.ts";
export { AUDIT_EXPORT_PATH } from "./audit-export.ts";
export type { ApiOptions } from "./http.ts";
export type { AppRouter } from "./root.ts";
export { startRunEventListener } from "./run-events/listener.ts";
export type { RunEventListener } from "./run-events/listener.ts";

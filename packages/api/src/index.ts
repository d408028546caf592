export {
  API_BASE_PATH,
  API_PATH_PREFIX,
  createApiHandler,
  isApiPath,
  MAX_API_BODY_BYTES,
} from "./http.ts";
export { AUDIT_EXPORT_PATH } from "./audit-export.ts";
export { OAUTH_CALLBACK_PATH } from "./oauth-callback.ts";
export type { ApiOptions } from "./http.ts";
export type { AppRouter } from "./root.ts";
export { startRunEventListener } from "./run-events/listener.ts";
export type { RunEventListener } from "./run-events/listener.ts";
export { createServerApi, createServerContext } from "./server-caller.ts";
export type { ServerApi, ServerCaller } from "./server-caller.ts";
export { clientAddressResolver } from "./client-address.ts";
export type { ClientAddress } from "./client-address.ts";

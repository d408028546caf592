// Use cases only: the authorization matrix enumerates these exports.
export { exportAuditEvents, listAuditEvents } from "./list.ts";

// Use cases only: the authorization matrix enumerates these exports.
export { listAuditEvents } from "./list.ts";

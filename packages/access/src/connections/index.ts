// Use cases only: the authorization matrix enumerates these exports.
export {
  createConnection,
  deleteConnection,
  setAllowedTools,
  storeDiscoveredTools,
} from "./manage.ts";
export { getConnectionImpact } from "./impact.ts";
export { listConnections } from "./list.ts";

// Use cases only: the authorization matrix enumerates these exports.
export {
  createConnection,
  deleteConnection,
  setAllowedTools,
  storeDiscoveredTools,
} from "./manage.ts";
export { discoverConnectionTools } from "./discover.ts";
export { startConnectionOAuth } from "./oauth.ts";
export { getConnectionImpact } from "./impact.ts";
export { getConnection, listConnections } from "./list.ts";

// Use cases only: the authorization matrix enumerates these exports.
export { listRepositories } from "./list.ts";
export { syncRepositoryNow } from "./sync-now.ts";

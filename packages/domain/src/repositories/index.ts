// Use cases only: the authorization matrix enumerates these exports.
export { addRepository } from "./add.ts";
export { listRepositories } from "./list.ts";
export { syncRepositoryNow } from "./sync-now.ts";

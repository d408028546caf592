// Use cases only: the authorization matrix enumerates these exports.
export { listMembers } from "./list.ts";

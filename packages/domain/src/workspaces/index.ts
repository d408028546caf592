// Use cases only: the authorization matrix enumerates these exports.
export { getWorkspace, updateWorkspace } from "./settings.ts";

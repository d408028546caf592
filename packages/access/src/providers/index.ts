// Use cases only: the authorization matrix enumerates these exports.
export { listModelProviders } from "./list.ts";
export { createModelProvider, replaceModelProviderKey, updateModelProvider } from "./manage.ts";

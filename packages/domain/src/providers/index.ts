// Use cases only: the authorization matrix enumerates these exports.
export { listModelProviders } from "./list.ts";
export {
  createModelProvider,
  deleteModelProvider,
  replaceModelProviderKey,
  updateModelProvider,
} from "./manage.ts";
export { verifyModelProvider } from "./verify.ts";

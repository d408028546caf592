// Use cases only: the authorization matrix enumerates these exports.
export { getOnboarding } from "./onboarding.ts";
export { getWorkspace, updateWorkspace } from "./settings.ts";

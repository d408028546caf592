export { applyOutput } from "./apply-output.ts";
export type { ApplyDeps, ApplyResult, SettledOutput } from "./apply-output.ts";
export { APPLIED_KINDS } from "./claim.ts";
export { expireHeldOutputs } from "./expire.ts";
export type { OutboundFetch } from "./github.ts";
export { SYSTEM_OUTPUT_APPLY } from "./record.ts";

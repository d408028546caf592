// Use cases only: the authorization matrix enumerates these exports.
export { approveOutput, rejectOutput } from "./decide.ts";
export { listRunOutputs, listWaitingOutputs } from "./read.ts";

// Use cases only: the authorization matrix enumerates these exports.
export { cancelRun } from "./cancel.ts";
export { getRun, listRuns } from "./read.ts";
export { readTranscriptPage } from "./transcript-page.ts";

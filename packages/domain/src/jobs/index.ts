// Use cases only: the authorization matrix enumerates these exports.
export { approveJob, rejectJob, revokeGrant } from "./decisions.ts";
export { pauseJob, resumeJob } from "./controls.ts";
export { getJob, listJobs } from "./read.ts";
export { getAccessReview } from "./review.ts";
export { runNow } from "./run-now.ts";

export { requireRole, notFound, ownerOnly, readerRoles } from "./context.ts";
export type { Actor, ActorContext, DbClient } from "./context.ts";
export { writeAudit, SYSTEM_PLANNER, SYSTEM_REPO_SYNC } from "./audit.ts";
export type { AuditInput } from "./audit.ts";
export { groupKey, normaliseRequest, requestHash, storedRequest } from "./request.ts";
export type { RequestedToolGroup } from "./request.ts";
export { readDiscoveredTools } from "./tools.ts";
export type { DiscoveredTool } from "./tools.ts";
export { upsertJobsFromConfig } from "./sync-jobs.ts";
export type { SyncChange, SyncedJob, UpsertJobsInput, UpsertJobsResult } from "./sync-jobs.ts";
export { getAccessReview } from "./review.ts";
export type { AccessReview, ReviewConnection, ReviewGroup, ReviewTool } from "./review.ts";
export { approveJob, rejectJob, revokeGrant } from "./decisions.ts";
export type { ApproveJobInput, ApproveJobResult } from "./decisions.ts";
export {
  createConnection,
  deleteConnection,
  revokeConnection,
  setAllowedTools,
  storeDiscoveredTools,
} from "./connections.ts";
export type { CreateConnectionInput } from "./connections.ts";
export { freezePlan, readPlan } from "./plan.ts";
export type { FrozenPlan, PlanEntry } from "./plan.ts";

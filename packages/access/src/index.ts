// The domain layer: every owner / admin / viewer use case as `(ctx, input)`, authorized by
// `requireRole` and audited by `recordAudit`; plus the helpers other packages build on.
export * from "./audit/index.ts";
export * from "./connections/index.ts";
export * from "./jobs/index.ts";
export * from "./members/index.ts";
export * from "./providers/index.ts";
export * from "./repositories/index.ts";
export * from "./runs/index.ts";
export * from "./webhooks/index.ts";
export * from "./workspaces/index.ts";
export type { CreateConnectionInput } from "./connections/manage.ts";
export type { ConnectionSummary } from "./connections/list.ts";
export type { AffectedJob } from "./connections/impact.ts";
export type { ApproveJobInput, ApproveJobResult } from "./jobs/decisions.ts";
export type { JobDetail, JobSummary } from "./jobs/read.ts";
export type { AccessReview, ReviewConnection, ReviewGroup, ReviewTool } from "./jobs/review.ts";
export type { MemberSummary } from "./members/list.ts";
export type {
  CreatedInvitation,
  CreateInvitationInput,
  PendingInvitation,
} from "./members/invitations.ts";
export type { CreateModelProviderInput, UpdateModelProviderInput } from "./providers/manage.ts";
export type { AddedRepository, AddRepositoryInput } from "./repositories/add.ts";
export type { CreateWebhookInput, WebhookSummary } from "./webhooks/manage.ts";
export type { WorkspaceSettings } from "./workspaces/settings.ts";
export type { ModelProviderSummary } from "./providers/list.ts";
export type { RepositorySummary } from "./repositories/list.ts";
export type { RunDetail, RunSummary } from "./runs/read.ts";
export type { AuditEventView, AuditFilters } from "./audit/list.ts";
export type { DeliveryView } from "./webhooks/deliveries.ts";
export type { Page, PageInput } from "./paging.ts";

export { notFound, requireRole } from "./context.ts";
export type { Actor, ActorContext, DbClient, Need, WorkspaceServices } from "./context.ts";
export { recordAudit, SYSTEM_SCHEDULER, TOOL_CALL_ACTION } from "./audit/record.ts";
export type { AuditAction, AuditEntry, AuditTargetType } from "./audit/record.ts";
export { insertQueuedRun, lockJobRuns } from "./runs/queued-run.ts";
export { groupKey, normaliseRequest, requestHash, storedRequest } from "./request.ts";
export type { RequestedToolGroup } from "./request.ts";
export { readDiscoveredTools } from "./tools.ts";
export type { DiscoveredTool } from "./tools.ts";
export { upsertJobsFromConfig } from "./sync-jobs.ts";
export type { SyncChange, SyncedJob, UpsertJobsInput, UpsertJobsResult } from "./sync-jobs.ts";
export { freezePlan, readPlan } from "./plan.ts";
export type { FrozenPlan, PlanEntry } from "./plan.ts";

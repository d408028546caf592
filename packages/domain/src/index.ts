// The domain layer: every owner / admin / viewer use case as `(ctx, input)`, authorized by
// `requireRole` and audited by `recordAudit`; plus the helpers other packages build on.
export * from "./audit/index.ts";
export * from "./connections/index.ts";
export * from "./jobs/index.ts";
export * from "./members/index.ts";
export * from "./providers/index.ts";
export * from "./repositories/index.ts";
export * from "./runs/index.ts";
export * from "./triggers/index.ts";
export * from "./webhooks/index.ts";
export * from "./workspaces/index.ts";
export type { CreateConnectionInput } from "./connections/manage.ts";
export type { FirstDiscovery } from "./connections/discovered-tools.ts";
export type { ConnectionDetail, ConnectionSummary, ConnectionWebhook } from "./connections/list.ts";
export type { ConnectionTool, ReconnectNeeded } from "./connections/view.ts";
// The OAuth callback: not a workspace use case (the state names the workspace), so not in the
// connections area's index (and its matrix); it authorizes with requireRole itself.
export { finishConnectionOAuth, OAUTH_PENDING_MS } from "./connections/oauth.ts";
export type { FinishOAuthDeps } from "./connections/oauth.ts";
export type { AffectedJob } from "./connections/impact.ts";
export type { ApproveJobInput, ApproveJobResult } from "./jobs/decisions.ts";
export type { JobDetail, JobSummary, SkippedFire } from "./jobs/read.ts";
export { describeSchedule, nextFireTimes } from "./jobs/schedule.ts";
export { isSchedulable } from "./jobs/schedulable.ts";
export type { SchedulableJob } from "./jobs/schedulable.ts";
export type { AccessReview, ReviewConnection, ReviewGroup, ReviewTool } from "./jobs/review.ts";
export type { ChangedTool, LastApproval, ReviewChange } from "./jobs/review-diff.ts";
export type { ReviewTriggers } from "./jobs/review-triggers.ts";
export type { MemberSummary } from "./members/list.ts";
export type {
  CreatedInvitation,
  CreateInvitationInput,
  PendingInvitation,
} from "./members/invitations.ts";
export type { CreateModelProviderInput, UpdateModelProviderInput } from "./providers/manage.ts";
export type { AddedRepository, AddRepositoryInput } from "./repositories/add.ts";
export type { CreateWebhookInput, UpdateWebhookInput, WebhookSummary } from "./webhooks/manage.ts";
export type { UpdateWorkspaceInput, WorkspaceSettings } from "./workspaces/settings.ts";
export type { Onboarding } from "./workspaces/onboarding.ts";
// Not workspace-scoped (the caller has no workspace yet): outside the area index and its matrix.
export { createWorkspace } from "./workspaces/create.ts";
export type { CreatedWorkspace, UserContext } from "./workspaces/create.ts";
export { locateRun } from "./runs/locate.ts";
export type { ModelProviderSummary } from "./providers/list.ts";
export type { ProviderVerification, VerifyFailure } from "./providers/verify.ts";
export type { RepositorySummary } from "./repositories/list.ts";
export type { RunDetail, RunFilters, RunSummary } from "./runs/read.ts";
export type { TranscriptPage, TranscriptPageEvent } from "./runs/transcript-page.ts";
export { TRANSCRIPT_PAGE_MAX } from "./runs/transcript-page.ts";
export type { AuditEventView, AuditFilters } from "./audit/list.ts";
export { EXPORT_PAGE_ROWS } from "./audit/list.ts";
export type { DeliveryView } from "./webhooks/deliveries.ts";
export type { Page, PageInput } from "./paging.ts";

export { notFound, requireRole } from "./context.ts";
export type {
  Actor,
  ActorContext,
  DbClient,
  DestinationCheck,
  McpAuthorizer,
  McpOAuthSession,
  Need,
  OutboundFetch,
  ToolDiscovery,
  WorkspaceServices,
} from "./context.ts";
export { recordAudit, SYSTEM_PLANNER, SYSTEM_REPO_SYNC, SYSTEM_SCHEDULER } from "./audit/record.ts";
export type { AuditEntry } from "./audit/record.ts";
// The audit words are the vocabulary's; AuditEntry is written in them.
export type { AuditAction, AuditTargetType } from "@secondshift/vocabulary";
export { groupKey, normaliseRequest, requestHash, storedRequest } from "./request.ts";
export { hasOutputs, readGrantedOutputs, readRequestedOutputs } from "./outputs/stored.ts";
export { readRequestedTriggers } from "./triggers/stored.ts";
export { githubAppWebhookPath } from "./triggers/webhook-secret.ts";
export type { ConnectionWebhookSecret } from "./triggers/webhook-secret.ts";
export type { TriggerEventView } from "./triggers/events-view.ts";
export type { JobEvents } from "./triggers/job-events.ts";
export { PROTECTED_PATH_LIMITS } from "./outputs/protected-paths.ts";
export {
  approveOutput,
  listRunOutputs,
  listWaitingOutputs,
  rejectOutput,
} from "./outputs/index.ts";
export type { OutputView, WaitingOutputView } from "./outputs/read.ts";
export type { RequestedToolGroup } from "./request.ts";
export { readDiscoveredTools } from "./tools.ts";
export type { DiscoveredTool } from "./tools.ts";
// What the run plan (frozen by the worker through @secondshift/broker) reads of the grant.
export { currentGrant, readBindings } from "./jobs/review.ts";

// What the audit log records, from closed sets (C29): the action, and the target's type (the
// Prisma model name, one spelling each). The domain's recordAudit and the broker's per-call rows
// write them; the audit screen and its filters read them.

export const AUDIT_ACTIONS = [
  // Owner / admin decisions (domain use cases).
  "job.approved",
  "job.rejected",
  "grant.revoked",
  "job.paused",
  "job.resumed",
  "run.requested",
  "run.cancel_requested",
  "repository.sync_requested",
  "webhook.redelivered",
  "connection.created",
  "connection.deleted",
  "connection.tools_allowed",
  "connection.tools_discovered",
  "connection.authorized",
  "invitation.created",
  "invitation.revoked",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "provider.created",
  "provider.updated",
  "provider.key_replaced",
  "provider.deleted",
  "provider.verified",
  "webhook.created",
  "webhook.deleted",
  "webhook.updated",
  "webhook.test_sent",
  "repository.added",
  "workspace.created",
  "workspace.updated",
  "audit.exported",
  // Repository sync (the system, on what a commit declares).
  "job.created",
  "job.request_changed",
  "job.restored",
  "job.removed",
  // The planner, the scheduler and the broker.
  "run.plan_refused",
  "schedule.skipped",
  "schedule.missed",
  "tool.call",
  // Results that leave a run (outputs.ts): proposed by the run's platform tool, checked at
  // finalize (held / refused), decided by an owner, applied or failed by a worker.
  "output.proposed",
  "output.held",
  "output.refused",
  "output.approved",
  "output.rejected",
  "output.applied",
  "output.failed",
  "output.expired",
  // Events (trigger-events.ts): a GitHub event queued a job's run, or was dropped with a
  // reason; a newer event superseded a queued run; the worker refused the event's actor.
  "event.run_queued",
  "event.dropped",
  "event.superseded",
  "event.actor_refused",
  "job.outsider_events_changed",
  "connection.webhook_secret_set",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** The Prisma model name of the target, one spelling each. */
export const AUDIT_TARGET_TYPES = [
  "Job",
  "Run",
  "Repository",
  "Connection",
  "Grant",
  "Webhook",
  "WebhookDelivery",
  "Membership",
  "Invitation",
  "ModelProvider",
  "Workspace",
  "RunOutput",
  "TriggerEvent",
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** The broker's per-call action (it writes its rows in its own statement). */
export const TOOL_CALL_ACTION = "tool.call" satisfies AuditAction;

// The one audit writer. Who, what, on which target — from closed sets, so a typo or a second
// spelling of a target type cannot compile. There is no free-text field: `outcome` is a short
// machine code, checked here, so arguments, credentials or responses cannot ride along (C29).
import type { ActorType } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { DbClient } from "../context.ts";

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
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** The broker's per-call action (it writes its rows in its own statement). */
export const TOOL_CALL_ACTION: AuditAction = "tool.call";

/** Actor ids of the system parts that write audit rows. */
export const SYSTEM_REPO_SYNC = "repo-sync";
export const SYSTEM_PLANNER = "planner";
export const SYSTEM_SCHEDULER = "scheduler";

export interface AuditEntry {
  workspaceId: string;
  actorType: ActorType;
  actorId: string;
  action: AuditAction;
  targetType?: AuditTargetType;
  targetId?: string;
  connectionId?: string;
  toolName?: string;
  /** A machine code such as "queued" or "previous_run_active", never a message. */
  outcome?: string;
  durationMs?: number;
}

const CODE = /^[a-z0-9_.:-]{1,64}$/i;

export async function recordAudit(db: DbClient, entry: AuditEntry): Promise<void> {
  if (entry.outcome !== undefined && !CODE.test(entry.outcome)) {
    // A programming error: refusing is safer than storing text that may carry a secret.
    throw new AppError("INTERNAL", "An audit outcome must be a short code.", {
      reason: "AUDIT_OUTCOME_NOT_A_CODE",
    });
  }
  await db.auditEvent.create({ data: entry });
}

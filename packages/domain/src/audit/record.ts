// The one audit writer. Who, what, on which target — from the vocabulary's closed sets (the
// audit screen reads the same words), so a typo or a second spelling of a target type cannot
// compile. There is no free-text field: `outcome` is a short
// machine code, checked here, so arguments, credentials or responses cannot ride along (C29).
import type { ActorType } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import type { AuditAction, AuditTargetType } from "@secondshift/vocabulary";
import type { DbClient } from "../context.ts";

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

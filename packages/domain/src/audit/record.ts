// The one audit writer. Who, what, on which target — from the vocabulary's closed sets (the
// audit screen reads the same words), so a typo or a second spelling of a target type cannot
// compile. There is no free-text field: `outcome` is a short
// machine code, checked here, so arguments, credentials or responses cannot ride along (C29).
// The one text is `targetLabel`: the target's name as the caller already holds it (job,
// provider, connection, webhook, repository, member), stored in the row because things get
// renamed and deleted. It is untrusted (job names come from repositories): one line, capped
// here, and the web app renders it as React text.
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
  /** What the target is called now (a name, never a secret): capped at TARGET_LABEL_MAX. */
  targetLabel?: string | null;
  connectionId?: string;
  toolName?: string;
  /** A machine code such as "queued" or "previous_run_active", never a message. */
  outcome?: string;
  durationMs?: number;
}

const CODE = /^[a-z0-9_.:-]{1,64}$/i;
/** Characters (code points) of a label kept; a longer one is cut and ends with "…". */
export const TARGET_LABEL_MAX = 120;

/** One line of at most TARGET_LABEL_MAX characters, or null when nothing is left. */
export function auditLabel(label: string | null | undefined): string | null {
  if (label == null) return null;
  // Control characters (newlines, escapes, bidi overrides) would let a name fake other rows.
  const line = label.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, " ").trim();
  if (line === "") return null;
  const chars = Array.from(line);
  return chars.length <= TARGET_LABEL_MAX
    ? line
    : `${chars.slice(0, TARGET_LABEL_MAX - 1).join("")}…`;
}

export async function recordAudit(db: DbClient, entry: AuditEntry): Promise<void> {
  if (entry.outcome !== undefined && !CODE.test(entry.outcome)) {
    // A programming error: refusing is safer than storing text that may carry a secret.
    throw new AppError("INTERNAL", "An audit outcome must be a short code.", {
      reason: "AUDIT_OUTCOME_NOT_A_CODE",
    });
  }
  const { targetLabel, ...rest } = entry;
  await db.auditEvent.create({ data: { ...rest, targetLabel: auditLabel(targetLabel) } });
}

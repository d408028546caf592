// Decisions leave an audit row: who, what, on which target. Never arguments, credentials or
// tool responses (C29) — callers pass ids and names only, and this type has no free-text field.
import type { ActorType } from "@secondshift/db";
import type { DbClient } from "./context.ts";

export interface AuditInput {
  workspaceId: string;
  actorType: ActorType;
  actorId: string;
  action: string;
  targetType?: string;
  targetId?: string;
  connectionId?: string;
  toolName?: string;
  outcome?: string;
  durationMs?: number;
}

/** The actor id repository sync writes under. */
export const SYSTEM_REPO_SYNC = "repo-sync";
export const SYSTEM_PLANNER = "planner";

export async function writeAudit(db: DbClient, input: AuditInput): Promise<void> {
  await db.auditEvent.create({ data: input });
}

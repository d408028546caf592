// The broker's two run status writes, one function each, so that the run lifecycle module can
// take them over in one line: a refusal that takes access away ends the run as REVOKED (C06),
// a call that could not be audited ends it as FAILED. Only a RUNNING run changes.
import type { Db } from "@secondshift/db";

export interface RunRef {
  id: string;
  workspaceId: string;
}

export async function markRunRevoked(db: Db, run: RunRef, reason: string): Promise<void> {
  await db.run.updateMany({
    where: { id: run.id, workspaceId: run.workspaceId, status: "RUNNING" },
    data: { status: "REVOKED", error: reason, finishedAt: new Date() },
  });
}

export async function markRunFailed(db: Db, run: RunRef, reason: string): Promise<void> {
  await db.run.updateMany({
    where: { id: run.id, workspaceId: run.workspaceId, status: "RUNNING" },
    data: { status: "FAILED", error: reason, finishedAt: new Date() },
  });
}

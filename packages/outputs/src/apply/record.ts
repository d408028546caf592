// The end of an apply: APPLIED with the object's URL, or FAILED with a reason for the owner, or
// HELD again for the owner (a pull request whose base moved onto its files), each audited as the
// system (O06: "applied" is written once, by the attempt holding the lock).
import type { Prisma } from "@secondshift/db";
import { recordAudit } from "@secondshift/domain";
import type { ClaimedOutput } from "./claim.ts";

/** The audit actor id of the output apply worker. */
export const SYSTEM_OUTPUT_APPLY = "output-apply";

type Tx = Prisma.TransactionClient;

export async function markApplied(
  tx: Tx,
  output: ClaimedOutput,
  result: { htmlUrl: string; created: boolean },
  now: Date,
): Promise<void> {
  await tx.runOutput.update({
    where: { id: output.id },
    data: { state: "APPLIED", resultUrl: result.htmlUrl, appliedAt: now, reason: null },
  });
  await recordAudit(tx, {
    workspaceId: output.workspaceId,
    actorType: "SYSTEM",
    actorId: SYSTEM_OUTPUT_APPLY,
    action: "output.applied",
    targetType: "RunOutput",
    targetId: output.id,
    targetLabel: output.kind,
    // "found": an earlier attempt had created it (its marker was there).
    outcome: result.created ? "created" : "found",
  });
}

export async function markFailed(
  tx: Tx,
  output: ClaimedOutput,
  failure: { reason: string; code: string },
): Promise<void> {
  await tx.runOutput.update({
    where: { id: output.id },
    data: { state: "FAILED", reason: failure.reason },
  });
  await recordAudit(tx, {
    workspaceId: output.workspaceId,
    actorType: "SYSTEM",
    actorId: SYSTEM_OUTPUT_APPLY,
    action: "output.failed",
    targetType: "RunOutput",
    targetId: output.id,
    targetLabel: output.kind,
    outcome: failure.code,
  });
}

/**
 * Back to HELD (the base branch moved onto the pull request's files): the owner decides again,
 * on the payload with the base head seen, so the next approval is checked against that head.
 */
export async function markHeldAgain(
  tx: Tx,
  output: ClaimedOutput,
  held: { reason: string; code: string; baseCheckedSha: string },
): Promise<void> {
  const payload = { ...(output.payload as Prisma.JsonObject), baseCheckedSha: held.baseCheckedSha };
  await tx.runOutput.update({
    where: { id: output.id },
    data: { state: "HELD", reason: held.reason, payload, decidedAt: null, decidedById: null },
  });
  await recordAudit(tx, {
    workspaceId: output.workspaceId,
    actorType: "SYSTEM",
    actorId: SYSTEM_OUTPUT_APPLY,
    action: "output.held",
    targetType: "RunOutput",
    targetId: output.id,
    targetLabel: output.kind,
    outcome: held.code,
  });
}

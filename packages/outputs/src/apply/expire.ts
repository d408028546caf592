// Held outputs do not wait forever: one older than the operator's hold limit
// (SECONDSHIFT_OUTPUT_HOLD_DAYS) becomes EXPIRED, audited, and is never applied. Each row moves
// in one conditional UPDATE, so an owner's approval racing the sweep wins or loses cleanly.
import type { Db } from "@secondshift/db";
import { recordAudit } from "@secondshift/domain";
import { SYSTEM_OUTPUT_APPLY } from "./record.ts";

const DAY_MS = 86_400_000;

export async function expireHeldOutputs(
  db: Db,
  options: { holdDays: number; now?: Date; limit?: number },
): Promise<number> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.holdDays * DAY_MS);
  const due = await db.runOutput.findMany({
    where: { state: "HELD", proposedAt: { lt: cutoff } },
    select: { id: true },
    take: options.limit ?? 500,
  });
  let expired = 0;
  for (const { id } of due) {
    const moved = await db.$transaction(async (tx) => {
      const [row] = await tx.runOutput.updateManyAndReturn({
        where: { id, state: "HELD" },
        data: { state: "EXPIRED", reason: `Not decided within ${options.holdDays} days.` },
        select: { id: true, workspaceId: true, kind: true },
      });
      if (!row) return false;
      await recordAudit(tx, {
        workspaceId: row.workspaceId,
        actorType: "SYSTEM",
        actorId: SYSTEM_OUTPUT_APPLY,
        action: "output.expired",
        targetType: "RunOutput",
        targetId: row.id,
        targetLabel: row.kind,
        outcome: "hold_limit",
      });
      return true;
    });
    if (moved) expired++;
  }
  return expired;
}

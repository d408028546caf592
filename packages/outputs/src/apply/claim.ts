// Claiming an output for applying, in one UPDATE: only an applicable one (READY, APPROVED, or
// APPLYING left by a crashed or failed attempt) of a kind this phase applies, and only once its
// run has ended — the write token is never minted for a run still running (O03).
import type { Db } from "@secondshift/db";
import { AppError } from "@secondshift/errors";
import { APPLICABLE_OUTPUT_STATES, FINAL_STATUSES, type OutputKind } from "@secondshift/vocabulary";

/** The kinds applied (all of them since phase (b)'s pull requests). */
export const APPLIED_KINDS = [
  "comment",
  "issue",
  "pull_request",
] as const satisfies readonly OutputKind[];

export async function claimOutput(db: Db, outputId: string) {
  const [claimed] = await db.runOutput.updateManyAndReturn({
    where: {
      id: outputId,
      state: { in: [...APPLICABLE_OUTPUT_STATES] },
      kind: { in: [...APPLIED_KINDS] },
      run: { status: { in: [...FINAL_STATUSES] } },
    },
    data: { state: "APPLYING", applyAttempts: { increment: 1 } },
  });
  if (claimed) return claimed;
  const row = await db.runOutput.findUnique({
    where: { id: outputId },
    select: { state: true, kind: true, run: { select: { status: true } } },
  });
  if (row === null)
    throw new AppError("NOT_FOUND", "That output does not exist.", { reason: "OUTPUT_NOT_FOUND" });
  const applicable = (APPLICABLE_OUTPUT_STATES as readonly string[]).includes(row.state);
  const kindApplied = (APPLIED_KINDS as readonly string[]).includes(row.kind);
  if (!applicable || !kindApplied) return null;
  throw new AppError(
    "CONFLICT",
    "An output is applied only after its run has ended; it is applied once the run finishes.",
    { reason: "RUN_NOT_FINISHED" },
  );
}

export type ClaimedOutput = NonNullable<Awaited<ReturnType<typeof claimOutput>>>;

// Records a run's end. The gateway (budget) or the broker (revocation) may already have set a
// final status; that status wins, and the rest of the record (times, summary, diff) is filled in.
import type { Db, RunStatus } from "@secondshift/db";

export const BUDGET_EXHAUSTED_ERROR =
  "The run used its whole model token budget. Raise the job's tokenBudget if it needs more.";

export interface FinishInput {
  status: RunStatus;
  error?: string | undefined;
  summary?: string | undefined;
  diff?: string | null;
}

export async function finishRun(
  db: Db,
  run: { id: string; workspaceId: string },
  input: FinishInput,
): Promise<{ status: RunStatus; error: string | null }> {
  const now = new Date();
  await db.run.updateMany({
    where: { ...run, status: { in: ["RUNNING", "QUEUED"] } },
    data: { status: input.status, error: input.error ?? null },
  });
  const current = await db.run.findFirstOrThrow({
    where: run,
    select: { status: true, error: true, finishedAt: true },
  });
  // The gateway marks a run budget-exhausted without a message.
  const error =
    input.error ?? (current.status === "BUDGET_EXHAUSTED" ? BUDGET_EXHAUSTED_ERROR : undefined);
  await db.run.updateMany({
    where: run,
    data: {
      finishedAt: current.finishedAt ?? now,
      ...(input.summary === undefined ? {} : { summary: input.summary }),
      ...(input.diff ? { diff: input.diff } : {}),
      ...(current.error || !error ? {} : { error }),
    },
  });
  return { status: current.status, error: current.error ?? error ?? null };
}

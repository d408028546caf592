// What fires and "run now" share: the active-run check and the Run insert, both done under
// the job's advisory lock so that a job never has two QUEUED/RUNNING runs at once.
import type { Prisma, RunModel, RunTrigger } from "@secondshift/db";

type Tx = Prisma.TransactionClient;

export async function findActiveRun(
  tx: Tx,
  workspaceId: string,
  jobId: string,
): Promise<{ id: string } | null> {
  return tx.run.findFirst({
    where: { workspaceId, jobId, status: { in: ["QUEUED", "RUNNING"] } },
    select: { id: true },
  });
}

export async function insertQueuedRun(
  tx: Tx,
  input: {
    workspaceId: string;
    jobId: string;
    trigger: RunTrigger;
    scheduledFor: Date | null;
    budgetTokens: number;
  },
): Promise<RunModel> {
  return tx.run.create({
    data: {
      workspaceId: input.workspaceId,
      jobId: input.jobId,
      trigger: input.trigger,
      scheduledFor: input.scheduledFor,
      status: "QUEUED",
      budgetTokens: input.budgetTokens,
    },
  });
}

export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002"
  );
}

// What schedule fires and "run now" share: the job's run lock, the active-run check and the
// QUEUED insert. Done under a transaction-scoped advisory lock on the job, because row locks
// cannot serialise "check for an active run, then insert one": the competing transaction's row
// does not exist yet. So a job never has two QUEUED/RUNNING runs at once.
import type { Db, Prisma, RunModel, RunTrigger } from "@secondshift/db";
import { ACTIVE_STATUSES } from "@secondshift/vocabulary";

type Tx = Prisma.TransactionClient;
type DbOrTx = Db | Tx;

/** Serialises run creation of one job (fires and "run now"); released at commit. */
export async function lockJobRuns(tx: Tx, jobId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('secondshift.job-runs'), hashtext(${jobId}))`;
}

export async function findActiveRun(
  tx: Tx,
  workspaceId: string,
  jobId: string,
): Promise<{ id: string } | null> {
  return tx.run.findFirst({
    where: { workspaceId, jobId, status: { in: [...ACTIVE_STATUSES] } },
    select: { id: true },
  });
}

/**
 * A run's token budget: the job's own, or — when its config declares none — the workspace's
 * default as it stands when the run is created (an owner's change applies to the next run).
 */
export async function runBudget(
  tx: DbOrTx,
  workspaceId: string,
  jobTokenBudget: number | null,
): Promise<number> {
  if (jobTokenBudget !== null) return jobTokenBudget;
  const workspace = await tx.workspace.findUniqueOrThrow({
    where: { id: workspaceId },
    select: { defaultTokenBudget: true },
  });
  return workspace.defaultTokenBudget;
}

export async function insertQueuedRun(
  tx: Tx,
  input: {
    workspaceId: string;
    jobId: string;
    trigger: RunTrigger;
    scheduledFor: Date | null;
    /** The job's own budget; null: the workspace default (runBudget). */
    jobTokenBudget: number | null;
  },
): Promise<RunModel> {
  const budgetTokens = await runBudget(tx, input.workspaceId, input.jobTokenBudget);
  return tx.run.create({
    data: {
      workspaceId: input.workspaceId,
      jobId: input.jobId,
      trigger: input.trigger,
      scheduledFor: input.scheduledFor,
      status: "QUEUED",
      budgetTokens,
    },
  });
}

// Transaction-scoped PostgreSQL advisory locks. Row locks cannot serialise "count the RUNNING
// runs, then start one" or "check for an active run, then insert one": both read rows that
// the competing transaction has not written yet. An advisory lock on the workspace (or job)
// makes those check-then-write steps run one at a time, and is released at commit.
import type { Prisma } from "@secondshift/db";

type Tx = Prisma.TransactionClient;

/** Serialises run claims of one workspace (the per-workspace concurrency limit). */
export async function lockWorkspaceRunClaims(tx: Tx, workspaceId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('secondshift.run-claim'), hashtext(${workspaceId}))`;
}

/** Serialises run creation of one job (fires and "run now": never two active runs). */
export async function lockJobRuns(tx: Tx, jobId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('secondshift.job-runs'), hashtext(${jobId}))`;
}

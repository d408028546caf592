// A transaction-scoped PostgreSQL advisory lock. Row locks cannot serialise "count the RUNNING
// runs, then start one": it reads rows the competing transaction has not written yet. An
// advisory lock on the workspace makes that check-then-write run one at a time, and is
// released at commit. (The job's run lock lives in @secondshift/run-lifecycle, shared with "run now".)
import type { Prisma } from "@secondshift/db";

type Tx = Prisma.TransactionClient;

/** Serialises run claims of one workspace (the per-workspace concurrency limit). */
export async function lockWorkspaceRunClaims(tx: Tx, workspaceId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('secondshift.run-claim'), hashtext(${workspaceId}))`;
}

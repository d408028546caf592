// "This user's access changed": a membership removed or its role changed, a session ended.
// Published with NOTIFY in the transaction that makes the change (delivered at its commit), so
// every web process can re-check that user's open live streams at once instead of at their next
// periodic check (packages/api's run event listener LISTENs on the channel).
import type { Prisma } from "./generated/client.ts";

export const ACCESS_CHANGES_CHANNEL = "secondshift_access_changes";

/** Anything that runs a raw statement: the client or a transaction. */
interface RawExecutor {
  $executeRaw(query: TemplateStringsArray | Prisma.Sql, ...values: unknown[]): Promise<number>;
}

export async function notifyAccessChanged(db: RawExecutor, userId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_notify(${ACCESS_CHANGES_CHANNEL}, ${userId})`;
}

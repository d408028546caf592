// Database rows for executor tests: the shared seeded workspace (with a default model provider
// unless told otherwise) and a claimed (RUNNING) run of its job.
import type { Db } from "@secondshift/db";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";

export async function seedRunningRun(
  db: Db,
  options: { withProvider?: boolean; timeoutSeconds?: number } = {},
): Promise<{ seed: SeededWorkspace; run: { id: string; workspaceId: string } }> {
  const seed = await seedWorkspace(db, {
    withProvider: options.withProvider !== false,
    ...(options.timeoutSeconds === undefined ? {} : { timeoutSeconds: options.timeoutSeconds }),
  });
  const run = await seedRun(db, seed, { status: "RUNNING" });
  return { seed, run };
}

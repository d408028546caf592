// Executor test fixtures: the shared seeded workspace (with a default model provider unless
// told otherwise), a claimed (RUNNING) run of its job, and a sandbox that stays quiet.
import type { Db } from "@secondshift/db";
import { seedRun, seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import type { RunSandbox } from "@secondshift/sandbox";

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

/**
 * A sandbox in which every command succeeds and prints nothing (the workspace count prints one
 * file): for executor tests whose subject is not the sandbox.
 */
export const quietSandbox: RunSandbox = {
  exec: (command) =>
    Promise.resolve({
      exitCode: 0,
      stdout: command.startsWith("find /workspace ") ? "1 1\n" : "",
      stderr: "",
      truncated: false,
      timedOut: false,
      aborted: false,
    }),
  readFile: () => Promise.resolve(Buffer.from("")),
  writeFile: () => Promise.resolve(),
  listFiles: () => Promise.resolve([]),
  copyInArchive: async (archive) => {
    for await (const _ of archive) void _;
  },
  destroy: () => Promise.resolve(),
};

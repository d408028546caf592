// The diff artifact: the repository copy is committed inside the sandbox before the agent starts
// (a fresh .git with no remote and no credentials), and diffed against that when the run ends.
import type { RunSandbox } from "@secondshift/sandbox";

const GIT =
  "git -c user.name=secondshift -c user.email=secondshift@localhost -c commit.gpgsign=false -c core.hooksPath=/dev/null";

export async function snapshotWorkspace(sandbox: RunSandbox): Promise<boolean> {
  const result = await sandbox.exec(
    `${GIT} init -q && ${GIT} add -A && ${GIT} commit -q --allow-empty -m base`,
    { timeoutMs: 120_000 },
  );
  return result.exitCode === 0;
}

export async function captureDiff(sandbox: RunSandbox, maxBytes: number): Promise<string | null> {
  const result = await sandbox.exec(`${GIT} add -A && ${GIT} diff --cached --no-color HEAD`, {
    timeoutMs: 120_000,
    maxOutputBytes: maxBytes,
  });
  if (result.exitCode !== 0) return null;
  return result.truncated
    ? `${result.stdout}\n[diff truncated at ${maxBytes} bytes]`
    : result.stdout;
}

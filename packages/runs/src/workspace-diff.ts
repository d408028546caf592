// The diff artifact: the diff is taken against the run's commit, so it holds the changes the agent
// made and not the history. With history the copy arrives with a .git whose HEAD is the run's
// commit (no remote, no credentials: exportHistory); only its index is built here. Without,
// the copy is committed as a single "base" commit in a fresh .git before the agent starts.
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

/** The copied history's index, from HEAD (the run's commit): the tree matches it, so no change. */
export async function adoptHistory(sandbox: RunSandbox): Promise<boolean> {
  const result = await sandbox.exec(`${GIT} reset -q`, { timeoutMs: 120_000 });
  return result.exitCode === 0;
}

/**
 * `base`: "HEAD" (the snapshot) or the run's commit, so a commit the agent made itself still
 * shows in the diff. Either comes from us (a full SHA from git), never from the sandbox.
 */
export async function captureDiff(
  sandbox: RunSandbox,
  maxBytes: number,
  base = "HEAD",
): Promise<string | null> {
  if (!/^(HEAD|[0-9a-f]{40}|[0-9a-f]{64})$/.test(base)) return null;
  const result = await sandbox.exec(`${GIT} add -A && ${GIT} diff --cached --no-color ${base}`, {
    timeoutMs: 120_000,
    maxOutputBytes: maxBytes,
  });
  if (result.exitCode !== 0) return null;
  return result.truncated
    ? `${result.stdout}\n[diff truncated at ${maxBytes} bytes]`
    : result.stdout;
}

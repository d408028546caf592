// The worker's sandbox sizes must fit together. Under gVisor the tmpfs contents of /workspace
// and /tmp, and every file's inode (~2 KiB each, not counted in the tmpfs size), live in the
// sandbox's own memory: writable areas as large as the memory limit mean a run can be killed
// for memory before it ever sees "no space left". So the sizes are checked at start, with the
// arithmetic in the message, instead of failing runs later.

/** Memory left beyond both tmpfs sizes: gVisor's kernel, the run's processes, per-file overhead. */
export const SANDBOX_MEMORY_HEADROOM_MB = 256;

interface SandboxSizes {
  SANDBOX_MEMORY_MB: number;
  SANDBOX_WORKSPACE_MB: number;
  SANDBOX_TMP_MB: number;
  SANDBOX_WORKSPACE_MAX_FILES: number;
  REPOSITORY_MAX_MB: number;
  REPOSITORY_MAX_FILES: number;
}

export function sandboxSizeProblems(
  env: SandboxSizes,
): Array<{ variable: string; message: string }> {
  const problems: Array<{ variable: string; message: string }> = [];
  const needed = env.SANDBOX_WORKSPACE_MB + env.SANDBOX_TMP_MB + SANDBOX_MEMORY_HEADROOM_MB;
  if (needed > env.SANDBOX_MEMORY_MB)
    problems.push({
      variable: "SANDBOX_MEMORY_MB",
      message: `is ${env.SANDBOX_MEMORY_MB} MiB, but SANDBOX_WORKSPACE_MB (${env.SANDBOX_WORKSPACE_MB}) + SANDBOX_TMP_MB (${env.SANDBOX_TMP_MB}) + ${SANDBOX_MEMORY_HEADROOM_MB} MiB for processes and per-file overhead = ${needed} MiB: under gVisor /workspace and /tmp are held in the sandbox's memory. Raise SANDBOX_MEMORY_MB to at least ${needed} or lower the other two.`,
    });
  if (env.REPOSITORY_MAX_MB >= env.SANDBOX_WORKSPACE_MB)
    problems.push({
      variable: "REPOSITORY_MAX_MB",
      message: `is ${env.REPOSITORY_MAX_MB} MiB, not below SANDBOX_WORKSPACE_MB (${env.SANDBOX_WORKSPACE_MB} MiB): the largest repository allowed would fill /workspace. Lower it or raise SANDBOX_WORKSPACE_MB.`,
    });
  if (env.SANDBOX_WORKSPACE_MAX_FILES <= env.REPOSITORY_MAX_FILES)
    problems.push({
      variable: "SANDBOX_WORKSPACE_MAX_FILES",
      message: `is ${env.SANDBOX_WORKSPACE_MAX_FILES}, not above REPOSITORY_MAX_FILES (${env.REPOSITORY_MAX_FILES}): a run on the largest repository allowed could not leave a single new file (a dependency install adds tens of thousands). Raise it or lower REPOSITORY_MAX_FILES.`,
    });
  return problems;
}

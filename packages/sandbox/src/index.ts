export { createSandboxManager } from "./manager.ts";
export type { SandboxManager } from "./manager.ts";
export { Sandbox } from "./sandbox.ts";
export { createReaper } from "./reaper.ts";
export type { Reaper, ReaperOptions } from "./reaper.ts";
export { buildContainerSpec, SANDBOX_ENV } from "./container-spec.ts";
export { checkRuntime, RUNSC_INSTALL_HELP } from "./runtime-check.ts";
export { createSandboxMetrics } from "./metrics.ts";
export type { SandboxMetrics } from "./metrics.ts";
export { sandboxReadinessChecks } from "./readiness.ts";
export type { SandboxReadinessCheck } from "./readiness.ts";
export { scrubGitConfig } from "./copy-in.ts";
export { SANDBOX_LOST_REASONS, sandboxOutOfMemory } from "./failures.ts";
export { LABELS, WORKSPACE_DIR } from "./types.ts";
export type {
  CreateSandboxOptions,
  DirEntry,
  ExecOptions,
  ExecResult,
  FileOptions,
  ListFilesOptions,
  RunSandbox,
  SandboxLimits,
  SandboxManagerConfig,
  SandboxRuntime,
} from "./types.ts";
export {
  checkWorkspaceFiles,
  WORKSPACE_FILES_SETTING,
  type WorkspaceCount,
} from "./workspace-count.ts";

// The run executor's dependencies: sandboxes, the repository at the run's commit, the tool
// broker, the frozen plan, webhook reports and the release of what the broker holds for a run.
import { freezePlan } from "@secondshift/broker";
import type { SecretMasker } from "@secondshift/logging";
import type { RunExecutorDeps } from "@secondshift/runs";
import type { SandboxManager } from "@secondshift/sandbox";
import { enqueueReports } from "@secondshift/webhooks";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";
import { createSourceProvider } from "./source.ts";
import type { ToolBroker } from "./tool-broker.ts";

export type ExecutorDeps = RunExecutorDeps & { masker: SecretMasker };

/**
 * Heartbeats must come several times per heartbeatTimeoutMs, or recovery (on this worker or
 * another) declares a healthy run lost between two beats.
 */
export function heartbeatInterval(settings: WorkerSettings): number {
  return Math.max(250, Math.min(5_000, Math.floor(settings.heartbeatTimeoutMs / 4)));
}

export function buildExecutorDeps(
  settings: WorkerSettings,
  services: WorkerServices,
  parts: {
    workerId: string;
    sandboxes: SandboxManager;
    tools: ToolBroker;
    /** Puts an output the finalize checks made READY on the outputs queue. */
    enqueueOutputApply?: RunExecutorDeps["enqueueOutputApply"];
  },
): ExecutorDeps {
  const { db, logger, masker } = services;
  const { broker, releaseRun } = parts.tools;
  const policy = { outbound: settings.outbound, allowFileRemotes: settings.allowFileRemotes };
  return {
    db,
    logger,
    masker,
    workerId: parts.workerId,
    gatewayUrl: settings.gatewayUrl,
    sandboxes: parts.sandboxes,
    source: createSourceProvider({
      db,
      keyring: settings.keyring,
      policy,
      masker,
      mintInstallationToken: parts.tools.mintInstallationToken,
      workDir: settings.workDir,
      limits: settings.repository,
      history: settings.history,
    }),
    broker: {
      call: (run, tool, args) => broker.call(run, tool, args),
      platformTools: (run) => broker.platformTools(run),
    },
    freezePlan,
    limits: {
      heartbeatMs: heartbeatInterval(settings),
      maxWorkspaceFiles: settings.sandbox.maxWorkspaceFiles,
    },
    enqueueReports: async (input) => {
      await enqueueReports(db, input);
    },
    ...(parts.enqueueOutputApply ? { enqueueOutputApply: parts.enqueueOutputApply } : {}),
    outputChecks: { allowWorkflowChanges: settings.outputs.allowWorkflowChanges ?? false },
    releaseRun,
  };
}

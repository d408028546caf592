// What the run executor needs from the rest of the worker. The worker app wires these to the
// sandbox, repo-sync, broker and webhooks packages; tests can wire real ones or small fakes.
import type { Readable } from "node:stream";
import type { BaseTree, OutputCheckConfig } from "@secondshift/outputs";
import type { BrokerResult, runAgent } from "@secondshift/agent";
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import type { RunSandbox } from "@secondshift/sandbox";

/** Creates the run's sandbox (packages/sandbox's manager; the one RunSandbox interface). */
export interface SandboxFactory {
  create(options: { runId: string; workspaceId: string; deadline: Date }): Promise<RunSandbox>;
}

/**
 * The repository at the run's commit, already within the operator's size limits, ready to be
 * streamed into the sandbox: `archive()` gives its tree as a tar stream (no .git, no
 * credentials), read once, never written out on the worker.
 */
export interface SourceCheckout {
  commit: string;
  archive(): Promise<Readable>;
  /**
   * The repository's recent history up to `commit`: a tar of `.git/…` entries (no remote, no
   * credential) to extract over the archive; null when the run gets none (off, or too large).
   */
  history?(): Promise<Readable | null>;
  /**
   * The commit's tree as the worker's own git has it, for the changes a proposed pull request
   * carries (compared with the sandbox's files, never with the sandbox's `.git`).
   */
  tree?(): Promise<BaseTree>;
  cleanup(): Promise<void>;
}

export interface SourceProvider {
  checkout(input: {
    /** The run the checkout is for: its masker scope holds the fetch's credential. */
    runId: string;
    workspaceId: string;
    repositoryId: string;
    commit: string | null;
  }): Promise<SourceCheckout>;
}

export interface BrokerRunContext {
  id: string;
  workspaceId: string;
  jobId: string;
  repositoryFullName: string;
}

export interface RunBroker {
  call(
    run: BrokerRunContext,
    toolName: string,
    args: Record<string, unknown>,
  ): Promise<BrokerResult>;
  /** The platform tools the run's plan grants (issue #24); none when absent. */
  platformTools?(
    run: BrokerRunContext,
  ): Promise<Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>>;
}

export interface PlanFreezer {
  (
    db: Db,
    input: { workspaceId: string; runId: string },
  ): Promise<{
    tools: Array<{
      name: string;
      connectionId: string;
      connectionKind: string;
      tool: string;
      inputSchema: Record<string, unknown>;
      mayChangeData: boolean;
    }>;
  }>;
}

export interface RunExecutorDeps {
  db: Db;
  logger: Logger;
  workerId: string;
  gatewayUrl: string;
  sandboxes: SandboxFactory;
  source: SourceProvider;
  broker: RunBroker;
  freezePlan: PlanFreezer;
  enqueueReports(input: { workspaceId: string; runId: string }): Promise<void>;
  /** Puts an output the finalize checks made READY on the outputs queue (after the run ended). */
  enqueueOutputApply?(output: { outputId: string; workspaceId: string }): Promise<void>;
  /** The operator's settings for the finalize checks (OUTPUTS_ALLOW_WORKFLOW_CHANGES); default off. */
  outputChecks?: OutputCheckConfig;
  /** Drops whatever the broker and connectors hold for the run (plan cache, minted tokens). */
  releaseRun?(runId: string): Promise<void> | void;
  /** The agent loop; injectable so tests can observe it. */
  runAgent?: typeof runAgent;
  limits?: Partial<RunExecutorLimits>;
}

export interface RunExecutorLimits {
  maxToolResultChars: number;
  heartbeatMs: number;
  /** How often the executor looks for a cancel request or an external stop (≤ 2 s promise). */
  stopPollMs: number;
  maxDiffBytes: number;
  /**
   * Files the run may leave in /workspace (outside .git) for its changes to be collected
   * (SANDBOX_WORKSPACE_MAX_FILES): past it the count stops and the run fails naming the limit.
   */
  maxWorkspaceFiles: number;
}

export const defaultLimits: RunExecutorLimits = {
  maxToolResultChars: 30_000,
  heartbeatMs: 5_000,
  stopPollMs: 500,
  maxDiffBytes: 1024 * 1024,
  maxWorkspaceFiles: 200_000,
};

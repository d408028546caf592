// The worker's settings as the platform takes them, built from the validated environment.
// Kept separate from env.ts so tests (and the end-to-end suite) build the same platform from
// their own values.
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WorkerEnv } from "@secondshift/config";
import type { Keyring } from "@secondshift/crypto";
import { outboundPolicy } from "@secondshift/service";
import type { OutboundPolicy } from "@secondshift/netguard";
import type { TreeLimits } from "@secondshift/repo-sync";
import type { SandboxLimits, SandboxRuntime } from "@secondshift/sandbox";

export interface WorkerSettings {
  production: boolean;
  keyring: Keyring;
  redis: { url: string; prefix?: string };
  gatewayUrl: string;
  publicUrl: string;
  outbound: OutboundPolicy;
  /** file:// remotes, for tests and local development only. */
  allowFileRemotes: boolean;
  sandbox: {
    image: string;
    runtime: SandboxRuntime;
    allowRunc: boolean;
    limits: SandboxLimits;
    /** Files a run may leave in /workspace for its changes to be collected (copy-out). */
    maxWorkspaceFiles: number;
  };
  /** The largest repository a run copies into its sandbox (REPOSITORY_MAX_MB / _FILES). */
  repository: TreeLimits;
  /** The Docker engine (DOCKER_HOST); unset: /var/run/docker.sock. See docker.ts. */
  dockerHost?: string;
  concurrency: number;
  /**
   * The worker's own folder for exported repositories, git homes and sync checkouts; the entry
   * point empties it at start (main.ts), so one folder per worker process.
   */
  workDir: string;
  repoConfig: {
    maxTimeoutMinutes: number;
    maxTokenBudget: number;
    defaultTimeoutMinutes: number;
  };
  intervals: {
    deliveryMs: number;
    repoSyncMs: number;
    recoverMs: number;
    reaperMs: number;
    scheduleSyncMs: number;
  };
  /** A run whose worker has not sent a heartbeat for this long is marked failed ("worker lost"). */
  heartbeatTimeoutMs: number;
  /** A dead worker's run queue jobs are handed on after one to two of these (BullMQ's lock). */
  queueLockMs: number;
}

export function settingsFromEnv(env: WorkerEnv, keyring: Keyring): WorkerSettings {
  const production = env.SECONDSHIFT_ENV === "production";
  const mib = 1024 * 1024;
  return {
    production,
    keyring,
    redis: { url: env.REDIS_URL },
    gatewayUrl: env.SECONDSHIFT_GATEWAY_URL,
    publicUrl: env.SECONDSHIFT_PUBLIC_URL,
    outbound: outboundPolicy(env),
    allowFileRemotes: false,
    sandbox: {
      image: env.SANDBOX_IMAGE,
      runtime: env.SANDBOX_RUNTIME,
      allowRunc: env.SANDBOX_ALLOW_RUNC,
      limits: {
        memoryBytes: env.SANDBOX_MEMORY_MB * mib,
        nanoCpus: Math.round(env.SANDBOX_CPUS * 1e9),
        pidsLimit: env.SANDBOX_PIDS_LIMIT,
        nofile: 4096,
        workspaceBytes: env.SANDBOX_WORKSPACE_MB * mib,
        tmpBytes: env.SANDBOX_TMP_MB * mib,
      },
      maxWorkspaceFiles: env.SANDBOX_WORKSPACE_MAX_FILES,
    },
    repository: { maxBytes: env.REPOSITORY_MAX_MB * mib, maxFiles: env.REPOSITORY_MAX_FILES },
    ...(env.DOCKER_HOST ? { dockerHost: env.DOCKER_HOST } : {}),
    concurrency: env.WORKER_CONCURRENCY,
    workDir: env.WORKER_WORK_DIR ?? join(tmpdir(), "secondshift-worker"),
    repoConfig: {
      maxTimeoutMinutes: Math.max(1, Math.floor(env.RUN_MAX_TIMEOUT_SECONDS / 60)),
      maxTokenBudget: env.RUN_MAX_TOKEN_BUDGET,
      defaultTimeoutMinutes: Math.min(
        30,
        Math.max(1, Math.floor(env.RUN_MAX_TIMEOUT_SECONDS / 60)),
      ),
    },
    intervals: {
      deliveryMs: 5_000,
      repoSyncMs: 5 * 60_000,
      recoverMs: 15_000,
      reaperMs: 30_000,
      scheduleSyncMs: 60_000,
    },
    heartbeatTimeoutMs: 60_000,
    queueLockMs: 30_000,
  };
}

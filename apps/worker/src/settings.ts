// The worker's settings as the platform takes them, built from the validated environment.
// Kept separate from env.ts so tests (and the end-to-end suite) build the same platform from
// their own values.
import { createHash } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { WorkerEnv } from "@secondshift/config";
import type { Keyring } from "@secondshift/crypto";
import { outboundPolicy } from "@secondshift/service";
import type { OutboundPolicy } from "@secondshift/netguard";
import type { HistoryLimits, TreeLimits } from "@secondshift/repo-sync";
import type { SandboxLimits, SandboxRuntime } from "@secondshift/sandbox";
import { dockerConnection, type DockerConnection } from "./docker.ts";

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
  /** The history a run's sandbox gets (SECONDSHIFT_RUN_HISTORY_COMMITS / _MAX_MB). */
  history: HistoryLimits;
  /** The Docker engine (DOCKER_HOST, DOCKER_TLS_VERIFY, DOCKER_CERT_PATH); unset: /var/run/docker.sock. */
  docker?: DockerConnection;
  /**
   * Which sandboxes on the engine are this installation's (a label): the reaper touches only
   * those, so installations sharing a sandbox host never remove each other's. `previousIds`
   * still count as ours (a key rotation under way), but new sandboxes carry `id`.
   */
  installation: { id: string; previousIds: string[] };
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
  /**
   * Results that leave runs: held ones expire after `holdDays` (SECONDSHIFT_OUTPUT_HOLD_DAYS); a
   * pull request may change workflows (held) when `allowWorkflowChanges`
   * (OUTPUTS_ALLOW_WORKFLOW_CHANGES; absent: off).
   */
  outputs: { holdDays: number; expirySweepMs: number; allowWorkflowChanges?: boolean };
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
    history: {
      maxCommits: env.SECONDSHIFT_RUN_HISTORY_COMMITS,
      maxBytes: env.SECONDSHIFT_RUN_HISTORY_MAX_MB * mib,
    },
    docker: dockerConnection({
      dockerHost: env.DOCKER_HOST,
      tlsVerify: env.DOCKER_TLS_VERIFY,
      certPath: env.DOCKER_CERT_PATH,
      production,
    }),
    installation: installationOf(keyring, env.SECONDSHIFT_INSTALLATION_ID),
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
    outputs: {
      holdDays: env.SECONDSHIFT_OUTPUT_HOLD_DAYS,
      expirySweepMs: 10 * 60_000,
      allowWorkflowChanges: env.OUTPUTS_ALLOW_WORKFLOW_CHANGES,
    },
  };
}

/**
 * SECONDSHIFT_INSTALLATION_ID, or by default one derived from the encryption key's id: stable
 * for an installation (every worker and restart holds the same key), different between
 * installations (each has its own key), and showing nothing of the key on the sandbox host (a
 * hash of its id). The previous keys' ids stay ours while a rotation is under way. Two
 * installations that share one key (a copy of .env) must set distinct ids.
 */
export function installationOf(
  keyring: Keyring,
  explicit?: string,
): WorkerSettings["installation"] {
  if (explicit) return { id: explicit, previousIds: [] };
  const derived = (keyId: string) =>
    `key-${createHash("sha256").update("secondshift-installation\0").update(keyId).digest("hex").slice(0, 16)}`;
  const previous = [...keyring.keys.keys()].filter((id) => id !== keyring.currentKeyId);
  return { id: derived(keyring.currentKeyId), previousIds: previous.map(derived) };
}

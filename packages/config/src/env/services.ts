// One environment schema per service. Only an app's entry point calls these; packages receive
// the parsed values as arguments.
import { z } from "zod";
import {
  booleanFlag,
  booleanFlagOn,
  cidrList,
  commaList,
  databaseUrl,
  deploymentMode,
  emptyAsUnset,
  encryptionKey,
  installationId,
  logLevel,
  optionalPort,
  ownFolder,
  port,
  positiveInt,
  previousEncryptionKeys,
  redisUrl,
  urlWithScheme,
  workspaceCreation,
  type Env,
} from "./fields.ts";
import { extraCaCerts } from "./ca-bundle.ts";
import { ConfigError } from "./config-error.ts";
import { parseEnv } from "./parse-env.ts";
import { sandboxSizeProblems } from "./sandbox-sizes.ts";

/** The most tokens one run may use: bounds .secondshift.yaml and a workspace's default budget. */
const runMaxTokenBudget = positiveInt(2_000_000, "tokens");

const shared = {
  SECONDSHIFT_ENV: deploymentMode,
  LOG_LEVEL: logLevel,
  DATABASE_URL: databaseUrl,
  SECONDSHIFT_ENCRYPTION_KEY: encryptionKey("SECONDSHIFT_ENCRYPTION_KEY"),
  SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS: previousEncryptionKeys(
    "SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS",
  ),
  SECONDSHIFT_ALLOWED_PRIVATE_HOSTS: commaList,
  SECONDSHIFT_ALLOWED_PRIVATE_CIDRS: commaList,
  /** A PEM file of CA certificates trusted for outbound HTTPS besides the public roots. */
  SECONDSHIFT_EXTRA_CA_CERTS: extraCaCerts,
  /** Prometheus /metrics on its own port (internal: never publish it); unset or empty: none. */
  METRICS_PORT: optionalPort,
};

export const webEnvSchema = z.object({
  ...shared,
  PORT: port(3000),
  REDIS_URL: redisUrl,
  SECONDSHIFT_PUBLIC_URL: urlWithScheme(["https", "http"], "https://secondshift.example.com"),
  /** First-run setup needs the one-time token the web service prints at start (default on). */
  SECONDSHIFT_SETUP_TOKEN_REQUIRED: booleanFlagOn,
  /** Who may create more workspaces: owners (default), anyone, operator-only. */
  SECONDSHIFT_WORKSPACE_CREATION: workspaceCreation,
  RUN_MAX_TOKEN_BUDGET: runMaxTokenBudget,
  /**
   * The reverse proxies in front of the web service (CIDR ranges): their X-Forwarded-For names
   * the client, for rate limits and sessions. Empty (default): the TCP peer is the client.
   */
  SECONDSHIFT_TRUSTED_PROXIES: cidrList,
  /**
   * A GitHub event older than this (its object's own time) starts nothing (E04): a captured
   * delivery cannot be replayed later. Default 20 minutes, at most a day.
   */
  SECONDSHIFT_MAX_EVENT_AGE_SECONDS: positiveInt(1200, "seconds", 86_400),
});

export const gatewayEnvSchema = z.object({
  ...shared,
  PORT: port(4000),
  GATEWAY_MAX_BODY_BYTES: positiveInt(10 * 1024 * 1024, "bytes"),
  GATEWAY_UPSTREAM_TIMEOUT_MS: positiveInt(600_000, "milliseconds"),
  GATEWAY_MAX_PARALLEL_PER_RUN: positiveInt(4, "requests", 1000),
  /** `anthropic-beta` values requests may ask for (default none). */
  GATEWAY_ANTHROPIC_BETA: commaList,
  /** Provider-side capabilities requests may use, by name (default none; see the gateway README). */
  GATEWAY_ALLOWED_PROVIDER_TOOLS: commaList.refine(
    (names) => names.every((n) => /^[a-z][a-z0-9_]*$/.test(n)),
    {
      message:
        "must be capability names such as web_search,code_execution (lowercase, underscores)",
    },
  ),
});

export const workerEnvSchema = z.object({
  ...shared,
  /** The worker's only HTTP endpoints: /healthz and /readyz. */
  PORT: port(4100),
  REDIS_URL: redisUrl,
  SECONDSHIFT_PUBLIC_URL: urlWithScheme(["https", "http"], "https://secondshift.example.com"),
  SECONDSHIFT_GATEWAY_URL: urlWithScheme(["https", "http"], "http://gateway:4000"),
  DOCKER_HOST: z.string().optional(),
  /** Mutual TLS to a tcp:// DOCKER_HOST (Docker's own variables; apps/worker/src/docker.ts). */
  DOCKER_TLS_VERIFY: emptyAsUnset(booleanFlag),
  DOCKER_CERT_PATH: emptyAsUnset(z.string().optional()),
  /** Names this installation's sandboxes on a shared engine (default: from the key, settings.ts). */
  SECONDSHIFT_INSTALLATION_ID: emptyAsUnset(installationId),
  SANDBOX_IMAGE: z
    .string()
    .min(1, "must name an image, e.g. secondshift-sandbox:latest")
    .default("secondshift-sandbox:latest"),
  SANDBOX_RUNTIME: z
    .enum(["runsc", "runc"], { error: 'must be "runsc" (gVisor) or "runc"' })
    .default("runsc"),
  SANDBOX_ALLOW_RUNC: booleanFlag,
  /** Must hold SANDBOX_WORKSPACE_MB + SANDBOX_TMP_MB + 256 MiB (sandbox-sizes.ts). */
  SANDBOX_MEMORY_MB: positiveInt(2048, "MiB"),
  SANDBOX_CPUS: z.coerce
    .number({ error: "must be a number of CPUs, e.g. 1 or 0.5" })
    .positive("must be more than 0")
    .default(1),
  SANDBOX_PIDS_LIMIT: positiveInt(256, "processes"),
  SANDBOX_WORKSPACE_MB: positiveInt(1024, "MiB"),
  SANDBOX_TMP_MB: positiveInt(256, "MiB"),
  /**
   * Files a run may leave in /workspace (outside .git, ignored ones such as node_modules
   * included) for its changes to be collected; counting stops past it and the run fails.
   */
  SANDBOX_WORKSPACE_MAX_FILES: positiveInt(200_000, "files"),
  WORKER_CONCURRENCY: positiveInt(4, "runs", 256),
  /** Exported repositories, git homes and sync checkouts; emptied at start (default in settings). */
  WORKER_WORK_DIR: ownFolder,
  /** A repository larger than this (sum of its files at the run's commit) is not copied. */
  REPOSITORY_MAX_MB: positiveInt(500, "MiB"),
  /** A repository with more files than this at the run's commit is not copied. */
  REPOSITORY_MAX_FILES: positiveInt(100_000, "files"),
  /** Commits of the repository's history a run's sandbox gets (its commit included); 0: none. */
  SECONDSHIFT_RUN_HISTORY_COMMITS: z.coerce
    .number({ error: "must be a whole number of commits" })
    .int("must be a whole number of commits")
    .min(0, "must be 0 (no history) or more commits")
    .max(10_000, "must be at most 10000 commits")
    .default(50),
  /** The most the sandbox's .git may take; past it fewer commits are given. */
  SECONDSHIFT_RUN_HISTORY_MAX_MB: positiveInt(64, "MiB"),
  RUN_MAX_TIMEOUT_SECONDS: positiveInt(3600, "seconds"),
  RUN_MAX_TOKEN_BUDGET: runMaxTokenBudget,
  /** A run's output held for an owner's approval expires after this many days undecided. */
  SECONDSHIFT_OUTPUT_HOLD_DAYS: positiveInt(14, "days", 365),
  /**
   * A proposed pull request may change GitHub Actions workflows (`.github/workflows/`): always
   * held for an owner, applied with a token that may also write workflows. Default off: refused.
   */
  OUTPUTS_ALLOW_WORKFLOW_CHANGES: booleanFlag,
});

function refineProduction<T extends { SECONDSHIFT_ENV: string }>(
  env: T,
  checks: Array<[boolean, string, string]>,
): T {
  const problems = checks
    .filter(([bad]) => bad)
    .map(([, variable, message]) => ({ variable, message }));
  if (env.SECONDSHIFT_ENV === "production" && problems.length > 0) {
    throw new ConfigError(problems);
  }
  return env;
}

export type WebEnv = z.output<typeof webEnvSchema>;
export type GatewayEnv = z.output<typeof gatewayEnvSchema>;
export type WorkerEnv = z.output<typeof workerEnvSchema>;

export function loadWebEnv(env: Env): WebEnv {
  return parseEnv(webEnvSchema, env);
}

export function loadGatewayEnv(env: Env): GatewayEnv {
  return parseEnv(gatewayEnvSchema, env);
}

export function loadWorkerEnv(env: Env): WorkerEnv {
  const parsed = parseEnv(workerEnvSchema, env);
  const sizes = sandboxSizeProblems(parsed);
  if (sizes.length > 0) throw new ConfigError(sizes);
  return refineProduction(parsed, [
    [
      parsed.SANDBOX_RUNTIME !== "runsc",
      "SANDBOX_RUNTIME",
      'production requires the gVisor runtime: set it to "runsc" (install Debian\'s runsc package and register it with dockerd)',
    ],
    [
      parsed.SANDBOX_ALLOW_RUNC,
      "SANDBOX_ALLOW_RUNC",
      "runc is refused in production; unset it or set SECONDSHIFT_ENV=development",
    ],
  ]);
}

/** Maintenance commands (migrate, rotate-keys): the database and the keys only. */
export const maintenanceEnvSchema = z.object({
  DATABASE_URL: databaseUrl,
  SECONDSHIFT_ENCRYPTION_KEY: encryptionKey("SECONDSHIFT_ENCRYPTION_KEY"),
  SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS: previousEncryptionKeys(
    "SECONDSHIFT_PREVIOUS_ENCRYPTION_KEYS",
  ),
});

export function loadMaintenanceEnv(env: Env) {
  return parseEnv(maintenanceEnvSchema, env);
}

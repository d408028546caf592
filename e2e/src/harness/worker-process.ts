// A worker as its own operating-system process, for scenarios that kill one (SIGKILL leaves no
// chance to clean up). Run with `node --import tsx worker-process.ts`; the settings come as JSON
// in SECONDSHIFT_E2E_WORKER (see WorkerProcessConfig). It builds the platform exactly as
// apps/worker does (createWorkerPlatform over testSettings), starts it, and logs JSON lines to
// stdout (masked like every worker log), "worker started" once it is consuming the queues.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createKeyring } from "@secondshift/crypto";
import { createDatabase } from "@secondshift/db";
import { createLogger, SecretMasker } from "@secondshift/logging";
import { createWorkerPlatform } from "@secondshift/worker/platform";
import type { WorkerSettings } from "@secondshift/worker/settings";
import { testSettings } from "./platform.ts";

export interface WorkerProcessConfig {
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
  gatewayUrl: string;
  keyB64: string;
  image: string;
  /** Overrides of plain (JSON) settings, e.g. { heartbeatTimeoutMs: 60_000, concurrency: 1 }. */
  overrides?: Partial<
    Pick<WorkerSettings, "concurrency" | "heartbeatTimeoutMs" | "intervals" | "queueLockMs">
  >;
}

export const WORKER_CONFIG_ENV = "SECONDSHIFT_E2E_WORKER";

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything the process wrote (stdout and stderr). */
  output: () => string;
  /** Resolves once the worker logged "worker started". */
  started: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the worker process with the given settings (from the test's process). */
export function spawnWorkerProcess(config: WorkerProcessConfig): WorkerProcess {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ["--import", "tsx", script], {
    cwd: fileURLToPath(new URL("../..", import.meta.url)),
    env: { ...process.env, [WORKER_CONFIG_ENV]: JSON.stringify(config) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let text = "";
  let onStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (onStarted = resolve));
  const collect = (chunk: Buffer) => {
    text += chunk.toString();
    if (text.includes('"msg":"worker started"')) onStarted();
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  const startedOrExited = Promise.race([
    started,
    exited.then(({ code, signal }) => {
      throw new Error(
        `worker process exited (${code ?? signal}) before starting:\n${text.slice(-4000)}`,
      );
    }),
  ]);
  return { child, output: () => text, started: startedOrExited, exited };
}

async function main(): Promise<void> {
  const raw = process.env[WORKER_CONFIG_ENV];
  if (!raw)
    throw new Error(
      `${WORKER_CONFIG_ENV} is not set: this script is started by spawnWorkerProcess().`,
    );
  const config = JSON.parse(raw) as WorkerProcessConfig;
  const keyring = createKeyring(new Uint8Array(Buffer.from(config.keyB64, "base64")));
  const settings = testSettings(keyring, config.gatewayUrl, {
    ...config.overrides,
    redis: { url: config.redisUrl, prefix: config.redisPrefix },
    sandbox: { ...testSettings(keyring, config.gatewayUrl).sandbox, image: config.image },
  });
  const masker = new SecretMasker();
  const logger = createLogger({ name: "e2e-worker-process", level: "debug", masker });
  const { db, pool } = createDatabase(config.databaseUrl, { maxConnections: 10 });
  const worker = createWorkerPlatform(settings, {
    db,
    pool,
    logger: logger.child({ service: "worker" }),
    masker,
  });
  const stop = () => {
    void worker.stop().finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  await worker.start({ repoSync: false });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

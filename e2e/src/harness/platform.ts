// A whole SecondShift worker side for scenario tests: real PostgreSQL (own database), real
// Redis (own key prefix), the real gateway on loopback in front of a scripted model provider,
// the worker platform exactly as apps/worker wires it (real sandboxes under runsc, broker,
// connectors, repo sync, scheduler, webhook delivery), and every log line kept in memory so
// tests can scan it for planted secrets. Only loopback addresses are allowed outbound.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKeyring, type Keyring } from "@secondshift/crypto";
import { ensureKeyCheck } from "@secondshift/db";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { createLogger, createMemorySink, SecretMasker, type Logger } from "@secondshift/logging";
import { createGatewayServer } from "@secondshift/model-gateway";
import { createOutboundClient, type OutboundPolicy } from "@secondshift/netguard";
import { createWorkerPlatform, type WorkerPlatform } from "@secondshift/worker/platform";
import { installationOf, type WorkerSettings } from "@secondshift/worker/settings";
import { startModelServer, type ModelServer } from "./model-server.ts";

export const loopbackPolicy: OutboundPolicy = {
  production: false,
  allowHttp: true,
  allowedPrivateHosts: [],
  allowedPrivateCidrs: ["127.0.0.1/32"],
};

export interface Platform {
  t: TestDatabase;
  keyring: Keyring;
  /** Base64 of the encryption key: a planted secret that must appear nowhere. */
  encryptionKeyB64: string;
  logger: Logger;
  masker: SecretMasker;
  logs: () => string;
  model: ModelServer;
  gatewayUrl: string;
  settings: WorkerSettings;
  worker: WorkerPlatform;
  close(): Promise<void>;
}

export function testSettings(
  keyring: Keyring,
  gatewayUrl: string,
  overrides: Partial<WorkerSettings> = {},
): WorkerSettings {
  const redisUrl = process.env.TEST_REDIS_URL;
  if (!redisUrl)
    throw new Error("TEST_REDIS_URL is not set: run the tests through scripts/test-all.sh.");
  const mib = 1024 * 1024;
  return {
    production: false,
    keyring,
    redis: { url: redisUrl, prefix: `e2e-${randomUUID().slice(0, 8)}` },
    gatewayUrl,
    publicUrl: "http://127.0.0.1:3000",
    outbound: loopbackPolicy,
    allowFileRemotes: true,
    sandbox: {
      image: process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test",
      runtime: "runsc",
      allowRunc: false,
      limits: {
        memoryBytes: 512 * mib,
        nanoCpus: 1e9,
        pidsLimit: 128,
        nofile: 1024,
        workspaceBytes: 128 * mib,
        tmpBytes: 64 * mib,
      },
      maxWorkspaceFiles: 50_000,
    },
    repository: { maxBytes: 100 * mib, maxFiles: 10_000 },
    history: { maxCommits: 50, maxBytes: 64 * mib },
    concurrency: 2,
    workDir: mkdtempSync(join(tmpdir(), "e2e-worker-")),
    repoConfig: {
      maxTimeoutMinutes: 60,
      maxTokenBudget: 1_000_000,
      defaultTimeoutMinutes: 10,
    },
    intervals: {
      deliveryMs: 200,
      repoSyncMs: 3_600_000,
      recoverMs: 1_000,
      reaperMs: 1_000,
      scheduleSyncMs: 1_000,
    },
    heartbeatTimeoutMs: 4_000,
    queueLockMs: 30_000,
    outputs: { holdDays: 14, expirySweepMs: 60_000 },
    // As in production (settings.ts): platforms sharing a key are one installation.
    installation: installationOf(keyring),
    ...overrides,
  };
}

export async function startPlatform(overrides: Partial<WorkerSettings> = {}): Promise<Platform> {
  const t = await createTestDatabase({ maxConnections: 20 });
  const key = randomBytes(32);
  const keyring = createKeyring(new Uint8Array(key));
  await ensureKeyCheck(t.db, keyring);
  const sink = createMemorySink();
  const masker = new SecretMasker();
  const logger = createLogger({ name: "e2e", level: "debug", destination: sink.stream, masker });
  const model = await startModelServer();
  const gatewayClient = createOutboundClient(loopbackPolicy);
  const gateway = createGatewayServer({
    db: t.db,
    pool: t.pool,
    keyring,
    outbound: gatewayClient,
    logger: logger.child({ service: "gateway" }),
    masker,
    limits: { maxBodyBytes: 10 * 1024 * 1024, upstreamTimeoutMs: 60_000, maxParallelPerRun: 4 },
  });
  const gatewayUrl = `http://127.0.0.1:${await gateway.listen(0, "127.0.0.1")}`;
  const settings = testSettings(keyring, gatewayUrl, overrides);
  const worker = createWorkerPlatform(settings, {
    db: t.db,
    pool: t.pool,
    logger: logger.child({ service: "worker" }),
    masker,
  });
  return {
    t,
    keyring,
    encryptionKeyB64: key.toString("base64"),
    logger,
    masker,
    logs: () => sink.text(),
    model,
    gatewayUrl,
    settings,
    worker,
    async close() {
      await worker.stop().catch(() => undefined);
      await gateway.close();
      await gatewayClient.close();
      await model.close();
      await t.drop();
      await rm(settings.workDir, { recursive: true, force: true });
    },
  };
}

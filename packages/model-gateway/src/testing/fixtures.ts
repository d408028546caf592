// Test wiring: a real database (template copy), a seeded workspace/job/run/token/provider, the
// gateway behind netguard with a loopback-only policy, and logs captured in memory so tests
// can scan every line for planted secrets.
import { randomBytes, randomUUID } from "node:crypto";
import { createKeyring, encryptField, mintToken, type Keyring } from "@secondshift/crypto";
import type { Db, Pool, RunStatus } from "@secondshift/db";
import { seedWorkspace } from "@secondshift/db/testing";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { createOutboundClient } from "@secondshift/netguard";
import { createGatewayServer, type Gateway } from "../server.ts";
import type { ForwardingPolicy, GatewayLimits } from "../options.ts";
import type { GatewayMetrics } from "../metrics.ts";

export interface SeededRun {
  token: string;
  runId: string;
  workspaceId: string;
  providerId: string;
}

export interface SeedOptions {
  kind?: "ANTHROPIC" | "OPENAI";
  baseUrl: string;
  providerKey: string;
  budget?: number;
  status?: RunStatus;
  tokenExpiresAt?: Date;
  tokenRevoked?: boolean;
  /** Bind the provider to the run (default) or only mark it the workspace default. */
  viaDefault?: boolean;
}

export async function seedRun(db: Db, keyring: Keyring, o: SeedOptions): Promise<SeededRun> {
  const seed = await seedWorkspace(db, { tokenBudget: o.budget ?? 100_000, timeoutSeconds: 600 });
  const ws = { id: seed.workspaceId };
  const providerId = randomUUID();
  const apiKeyCiphertext = await encryptField(keyring, o.providerKey, {
    workspaceId: ws.id,
    table: "ModelProvider",
    rowId: providerId,
    field: "apiKeyCiphertext",
  });
  await db.modelProvider.create({
    data: {
      id: providerId,
      workspaceId: ws.id,
      name: "p",
      kind: o.kind ?? "ANTHROPIC",
      baseUrl: o.baseUrl,
      apiKeyCiphertext,
      isDefault: true,
    },
  });
  const run = await db.run.create({
    data: {
      workspaceId: ws.id,
      jobId: seed.jobId,
      modelProviderId: o.viaDefault ? null : providerId,
      trigger: "MANUAL",
      status: o.status ?? "RUNNING",
      budgetTokens: o.budget ?? 100_000,
    },
  });
  const { token, hash } = mintToken("run");
  await db.runToken.create({
    data: {
      workspaceId: ws.id,
      runId: run.id,
      tokenHash: new Uint8Array(hash),
      expiresAt: o.tokenExpiresAt ?? new Date(Date.now() + 3600_000),
      revokedAt: o.tokenRevoked ? new Date() : null,
    },
  });
  return { token, runId: run.id, workspaceId: ws.id, providerId };
}

export interface TestGateway {
  gateway: Gateway;
  url: string;
  keyring: Keyring;
  masker: SecretMasker;
  logs: () => string;
  close(): Promise<void>;
}

export const testLimits: GatewayLimits = {
  maxBodyBytes: 256 * 1024,
  upstreamTimeoutMs: 2000,
  maxParallelPerRun: 4,
};

export interface TestGatewayOptions {
  limits?: Partial<GatewayLimits>;
  keyring?: Keyring;
  forwarding?: ForwardingPolicy;
  metrics?: GatewayMetrics;
}

/** A gateway over a test database (`createTestDatabase()`: Prisma and the pool it runs on). */
export async function startTestGateway(
  { db, pool }: { db: Db; pool: Pool },
  options: TestGatewayOptions = {},
): Promise<TestGateway> {
  const { limits = {}, keyring: shared, forwarding } = options;
  const keyring = shared ?? createKeyring(new Uint8Array(randomBytes(32)));
  const sink = createMemorySink();
  const masker = new SecretMasker();
  const logger = createLogger({
    name: "gateway",
    level: "debug",
    destination: sink.stream,
    masker,
  });
  // The scripted provider listens on 127.0.0.1; the policy allows exactly that address.
  const client = createOutboundClient({
    production: false,
    allowHttp: true,
    allowedPrivateHosts: [],
    allowedPrivateCidrs: ["127.0.0.1/32"],
  });
  const gateway = createGatewayServer({
    db,
    keyring,
    outbound: client,
    logger,
    masker,
    pool,
    limits: { ...testLimits, ...limits },
    forwarding,
    ...(options.metrics ? { metrics: options.metrics } : {}),
  });
  const port = await gateway.listen(0, "127.0.0.1");
  return {
    gateway,
    url: `http://127.0.0.1:${port}`,
    keyring,
    masker,
    logs: () => sink.text(),
    async close() {
      await gateway.close(1000);
      await client.close();
    },
  };
}

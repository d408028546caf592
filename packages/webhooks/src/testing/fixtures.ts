// Test helpers (`@secondshift/webhooks/testing`): a workspace with a repository, job, finished
// run and webhooks whose URL and secret are encrypted exactly as the web app stores them, and a
// loopback receiver. Receivers listen on 127.0.0.1 only; the netguard policy allows just 127.0.0.1/32.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createKeyring, encryptField, type Keyring } from "@secondshift/crypto";
import type { Db, RunStatus } from "@secondshift/db";
import { seedWorkspace, type SeededWorkspace } from "@secondshift/db/testing";
import type { OutboundPolicy } from "@secondshift/netguard";

export const loopbackPolicy = (overrides: Partial<OutboundPolicy> = {}): OutboundPolicy => ({
  production: false,
  allowHttp: true,
  allowedPrivateHosts: [],
  allowedPrivateCidrs: ["127.0.0.1/32"],
  timeoutMs: 5_000,
  ...overrides,
});

export const testKeyring = (): Keyring => createKeyring(new Uint8Array(randomBytes(32)));

/** A seeded workspace (owner, admin, viewer, repository, job) from the shared fixture. */
export type Tenant = SeededWorkspace;

export const createTenant = (db: Db, jobKey = "nightly"): Promise<Tenant> =>
  seedWorkspace(db, { jobKey, tokenBudget: 50_000, timeoutSeconds: 600 });

export async function createRun(
  db: Db,
  tenant: Tenant,
  overrides: {
    status?: RunStatus;
    summary?: string | null;
    error?: string | null;
    jobId?: string;
  } = {},
) {
  const started = new Date("2026-01-05T10:00:00.000Z");
  return db.run.create({
    data: {
      workspaceId: tenant.workspaceId,
      jobId: overrides.jobId ?? tenant.jobId,
      trigger: "SCHEDULE",
      status: overrides.status ?? "SUCCEEDED",
      commitSha: "a".repeat(40),
      budgetTokens: 50_000,
      tokensUsed: 1_500,
      inputTokens: 1_200,
      outputTokens: 300,
      startedAt: started,
      finishedAt: new Date(started.getTime() + 42_000),
      summary: overrides.summary === undefined ? "All green." : overrides.summary,
      error: overrides.error ?? null,
    },
  });
}

export async function createWebhook(
  db: Db,
  keyring: Keyring,
  workspaceId: string,
  input: {
    url: string;
    secret: string;
    jobKeys?: string[];
    statuses?: RunStatus[];
    enabled?: boolean;
  },
) {
  const id = randomUUID();
  const binding = { workspaceId, table: "Webhook", rowId: id };
  return db.webhook.create({
    data: {
      id,
      workspaceId,
      name: "Reports",
      urlCiphertext: await encryptField(keyring, input.url, { ...binding, field: "urlCiphertext" }),
      secretCiphertext: await encryptField(keyring, input.secret, {
        ...binding,
        field: "secretCiphertext",
      }),
      jobKeys: input.jobKeys ?? [],
      statuses: input.statuses ?? [],
      enabled: input.enabled ?? true,
    },
  });
}

export interface ReceivedRequest {
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface Receiver {
  port: number;
  received: ReceivedRequest[];
  /** Decides the answer for each request; default 200. */
  respond: (req: ReceivedRequest, res: ServerResponse) => void;
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const receiver: Receiver = {
    port: 0,
    received: [],
    respond: (_req, res) => res.writeHead(200).end("ok"),
    close: () => Promise.resolve(),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const entry = {
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      receiver.received.push(entry);
      receiver.respond(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

// P06 through the readers that decrypt connection credentials: a credential ciphertext moved
// with SQL to another connection's row, to another field of its row, or (its whole row) to
// another workspace is refused by the broker's tool call and by tool discovery, with the
// cipher's reason and a message that says why — never with the plaintext, and before the
// connector (the service) is called with anything.
import { approveJob } from "@secondshift/domain";
import {
  createRun,
  job,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
  type Tenant,
} from "@secondshift/domain/testing";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { upsertJobsFromConfig } from "@secondshift/repo-sync";
import { randomUUID } from "node:crypto";
import { describe, expect } from "vitest";
import { createBroker, type BrokerRun } from "./broker.ts";
import { listConnectionTools } from "./discovery.ts";
import { freezePlan } from "./plan.ts";
import { isToolCallError } from "./refusals.ts";
import { tokenEndpointRefresher } from "./secrets.ts";
import { fakeConnector } from "./testing/fake-connector.ts";

const keyring = testKeyring();
const sink = createMemorySink();
const mcp = fakeConnector("MCP");
/** The credential each discovery handed the service. */
const listedWith: Array<string | null | undefined> = [];
mcp.connector.listTools = (_target, secrets) => {
  listedWith.push(secrets.credential);
  const inputSchema = { type: "object", properties: { q: { type: "string" } } };
  return Promise.resolve([{ name: "search", inputSchema, mayChangeData: false }]);
};
const limits = { timeoutMs: 5_000, maxResultBytes: 4096, maxStringLength: 50, maxArrayItems: 5 };
const planted = () => `p06-planted-${randomUUID()}`;

const test = dbTest
  .extend("tenant", { scope: "file" }, ({ db }) => seedTenant(db, "acme"))
  .extend("other", { scope: "file" }, ({ db }) => seedTenant(db, "globex"))
  .extend("broker", { scope: "file" }, ({ db, testDatabase }) =>
    createBroker({
      db,
      pool: testDatabase.pool,
      keyring,
      connectors: { MCP: mcp.connector },
      logger: createLogger({ name: "t", destination: sink.stream }),
      limits,
      oauthRefresher: tokenEndpointRefresher(fetch),
    }),
  );

test.beforeEach(() => {
  mcp.calls.length = 0;
  listedWith.length = 0;
});

async function connection(
  db: Db,
  tenant: Tenant,
  options: { credential?: string; oauth?: { accessToken: string; refreshToken: string } },
): Promise<string> {
  return seedConnection(db, keyring, tenant, {
    kind: "MCP",
    label: `c-${randomUUID().slice(0, 8)}`,
    tools: [tool("search")],
    allowed: ["search"],
    ...(options.credential ? { credential: options.credential } : {}),
    ...(options.oauth
      ? {
          authType: "OAUTH" as const,
          oauth: {
            ...options.oauth,
            expiresAt: new Date(Date.now() + 3_600_000),
            config: { tokenEndpoint: "http://127.0.0.1:9/token" },
          },
        }
      : {}),
  });
}

/** An approved job bound to the connection, and a run of it with its plan frozen. */
async function runWith(db: Db, tenant: Tenant, connectionId: string): Promise<BrokerRun> {
  const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
  const key = `job-${randomUUID().slice(0, 8)}`;
  const { jobs } = await upsertJobsFromConfig(db, {
    workspaceId: tenant.workspaceId,
    repositoryId: tenant.repositoryId,
    commit: "c1",
    jobs: [job(key, [{ kind: "MCP", label: row.label, required: true, tools: ["search"] }])],
  });
  const jobId = jobs.find((j) => j.key === key)!.jobId;
  const stored = await db.job.findUniqueOrThrow({ where: { id: jobId } });
  await approveJob(
    { db, actor: { userId: tenant.ownerId }, workspaceId: tenant.workspaceId },
    { jobId, requestHash: stored.requestHash, bindings: { [`MCP:${row.label}`]: connectionId } },
  );
  const runId = await createRun(db, tenant.workspaceId, jobId);
  await freezePlan(db, { workspaceId: tenant.workspaceId, runId });
  return { id: runId, workspaceId: tenant.workspaceId, jobId, repositoryFullName: "acme/app" };
}

function discover(db: Db, tenant: Tenant, connectionId: string) {
  return listConnectionTools({
    db,
    keyring,
    actor: { userId: tenant.ownerId },
    workspaceId: tenant.workspaceId,
    connectors: { MCP: mcp.connector },
    connectionId,
    timeoutMs: 5_000,
  });
}

/** Both readers refuse: the cipher's reason, a message naming the field, no plaintext, no call. */
async function expectRefused(
  db: Db,
  broker: ReturnType<typeof createBroker>,
  tenant: Tenant,
  run: BrokerRun,
  connectionId: string,
  field: string,
  secrets: string[],
) {
  const call: unknown = await broker.call(run, "search", { q: "x" }).catch((e: unknown) => e);
  expect(isToolCallError(call, "CREDENTIAL_UNAVAILABLE"), String(call)).toBe(true);
  expect((call as Error).message).toMatch(
    new RegExp(`Connection\\.${field} value does not decrypt for this row`),
  );
  const listed: unknown = await discover(db, tenant, connectionId).catch((e: unknown) => e);
  expect(listed).toMatchObject({ reason: "DECRYPTION_FAILED" });
  expect((listed as Error).message).toMatch(
    new RegExp(`Connection\\.${field} value does not decrypt for this row`),
  );
  expect(mcp.calls).toEqual([]);
  expect(listedWith).toEqual([]);
  const said = [
    JSON.stringify(call),
    (call as Error).message,
    JSON.stringify(listed),
    (listed as Error).message,
    sink.text(),
    JSON.stringify(await db.auditEvent.findMany({ where: { workspaceId: tenant.workspaceId } })),
  ].join("\n");
  for (const secret of secrets) expect(said).not.toContain(secret);
}

describe("moved credential ciphertexts", () => {
  test("[P06] copied into another connection's row: the tool call and discovery refuse it", async ({
    db,
    tenant,
    broker,
  }) => {
    const source = planted();
    const from = await connection(db, tenant, { credential: source });
    const to = await connection(db, tenant, { credential: planted() });
    const run = await runWith(db, tenant, to);
    // The target works before the move: the broker passes its own credential.
    await broker.call(run, "search", { q: "x" });
    expect(mcp.calls.map((c) => c.secrets.credential)).not.toContain(source);
    mcp.calls.length = 0;

    await db.$executeRaw`UPDATE "Connection" SET "credentialCiphertext" =
      (SELECT "credentialCiphertext" FROM "Connection" WHERE id = ${from}) WHERE id = ${to}`;
    await expectRefused(db, broker, tenant, run, to, "credentialCiphertext", [source]);
  });

  test("[P06] moved to another field of its row (refresh token into the access token): refused", async ({
    db,
    tenant,
    broker,
  }) => {
    const tokens = { accessToken: planted(), refreshToken: planted() };
    const id = await connection(db, tenant, { oauth: tokens });
    const run = await runWith(db, tenant, id);
    await broker.call(run, "search", { q: "x" });
    expect(mcp.calls.map((c) => c.secrets.oauth?.accessToken)).toEqual([tokens.accessToken]);
    mcp.calls.length = 0;

    await db.$executeRaw`UPDATE "Connection"
      SET "oauthAccessTokenCiphertext" = "oauthRefreshTokenCiphertext" WHERE id = ${id}`;
    await expectRefused(db, broker, tenant, run, id, "oauthAccessTokenCiphertext", [
      tokens.refreshToken,
      tokens.accessToken,
    ]);
  });

  test("[P06] its row moved to another workspace (same id, same field): refused there", async ({
    db,
    other,
    broker,
  }) => {
    const secret = planted();
    const home = await seedTenant(db, `home-${randomUUID().slice(0, 6)}`);
    const id = await connection(db, home, { credential: secret });
    // At home it decrypts. (No grant yet: the schema's workspace-scoped foreign keys refuse to
    // move a row that grants refer to, which is a guard of its own.)
    expect((await discover(db, home, id)).map((t) => t.name)).toEqual(["search"]);
    expect(listedWith).toEqual([secret]);
    listedWith.length = 0;

    await db.$executeRaw`UPDATE "Connection" SET "workspaceId" = ${other.workspaceId} WHERE id = ${id}`;
    const run = await runWith(db, other, id);
    await expectRefused(db, broker, other, run, id, "credentialCiphertext", [secret]);
  });
});

// OAuth refresh in the broker against a loopback token endpoint: one refresh per expiry even
// when two workers call at the same moment, new tokens stored encrypted, a refused refresh
// marks the connection reconnect-needed and fails the run (C26, C23).
import { approveJob } from "@secondshift/domain";
import { upsertJobsFromConfig } from "@secondshift/repo-sync";
import { freezePlan } from "./plan.ts";
import {
  createRun,
  job,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
} from "@secondshift/domain/testing";
import { decryptField } from "@secondshift/crypto";
import { createDatabase, type Database } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { describe, expect } from "vitest";
import { createBroker, type BrokerRun } from "./broker.ts";
import { listConnectionTools } from "./discovery.ts";
import { isToolCallError } from "./refusals.ts";
import { tokenEndpointRefresher } from "./secrets.ts";
import { fakeConnector } from "./testing/fake-connector.ts";
import { startFakeOAuthServer } from "./testing/oauth-server.ts";

const limits = { timeoutMs: 5_000, maxResultBytes: 4096, maxStringLength: 50, maxArrayItems: 5 };
const schema = { type: "object", properties: { q: { type: "string" } } };
const keyring = testKeyring();
const sink = createMemorySink();
const mcp = fakeConnector("MCP");

function brokerOn(database: Database) {
  return createBroker({
    db: database.db,
    pool: database.pool,
    keyring,
    connectors: { MCP: mcp.connector },
    logger: createLogger({ name: "t", destination: sink.stream }),
    limits,
    oauthRefresher: tokenEndpointRefresher(fetch),
  });
}

const test = dbTest
  .extend("tenant", { scope: "file" }, ({ db }) => seedTenant(db))
  /** A loopback OAuth token endpoint. */
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("oauth", { scope: "file" }, async ({}, { onCleanup }) => {
    const oauth = await startFakeOAuthServer(3600);
    onCleanup(() => oauth.stop());
    return oauth;
  })
  // Two workers: each its own pool and broker, sharing only the database.
  .extend("workers", { scope: "file" }, ({ testDatabase }, { onCleanup }) => {
    const workers = [createDatabase(testDatabase.url), createDatabase(testDatabase.url)];
    onCleanup(async () => {
      await Promise.all(workers.map((w) => w.close()));
    });
    return workers;
  })
  .extend(
    "oauthConnection",
    { scope: "file" },
    ({ db, tenant, oauth }) =>
      (label: string, refreshToken: string): Promise<string> => {
        oauth.valid.add(refreshToken);
        return seedConnection(db, keyring, tenant, {
          kind: "MCP",
          label,
          tools: [tool("search", false, schema)],
          allowed: ["search"],
          authType: "OAUTH",
          oauth: {
            accessToken: `at-expired-${label}-3c8e`,
            refreshToken,
            expiresAt: new Date(Date.now() - 1_000),
            config: { tokenEndpoint: oauth.tokenEndpoint },
          },
        });
      },
  )
  .extend(
    "startRun",
    { scope: "file" },
    ({ db, tenant }) =>
      async (key: string, label: string, connectionId: string): Promise<BrokerRun> => {
        const { jobs } = await upsertJobsFromConfig(db, {
          workspaceId: tenant.workspaceId,
          repositoryId: tenant.repositoryId,
          commit: "c1",
          jobs: [job(key, [{ kind: "MCP", label, required: true, tools: ["search"] }])],
        });
        const jobId = jobs[0]!.jobId;
        const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
        await approveJob(
          { db, actor: { userId: tenant.ownerId }, workspaceId: tenant.workspaceId },
          { jobId, requestHash: row.requestHash, bindings: { [`MCP:${label}`]: connectionId } },
        );
        const runId = await createRun(db, tenant.workspaceId, jobId);
        await freezePlan(db, { workspaceId: tenant.workspaceId, runId });
        return {
          id: runId,
          workspaceId: tenant.workspaceId,
          jobId,
          repositoryFullName: "acme/app",
        };
      },
  );

const bind = (workspaceId: string, rowId: string, field: string) => ({
  workspaceId,
  table: "Connection",
  rowId,
  field,
});

test.beforeEach(({ oauth }) => {
  mcp.calls.length = 0;
  oauth.refreshes.length = 0;
  oauth.refuse = false;
  oauth.delayMs = 0;
});

describe("OAuth refresh", () => {
  test("[C26] two workers calling at the same moment on an expired token: the OAuth server sees one refresh", async ({
    db,
    tenant,
    oauth,
    workers,
    oauthConnection,
    startRun,
  }) => {
    const connectionId = await oauthConnection("race", "rt-race-initial-61f0");
    const [first, second] = [
      await startRun("race-1", "race", connectionId),
      await startRun("race-2", "race", connectionId),
    ];
    oauth.delayMs = 300; // the second worker arrives while the first one is refreshing
    const [w1, w2] = workers.map(brokerOn);
    await Promise.all([
      w1!.call(first, "search", { q: "a" }),
      w2!.call(second, "search", { q: "b" }),
    ]);

    expect(oauth.refreshes).toEqual(["rt-race-initial-61f0"]);
    const fresh = oauth.issued.at(-1)!;
    expect(mcp.calls.map((c) => c.secrets.oauth?.accessToken)).toEqual([
      fresh.accessToken,
      fresh.accessToken,
    ]);
    // Both new tokens are stored, encrypted and bound to the row and field (C23, P06).
    const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    const stored = Buffer.concat([
      row.oauthAccessTokenCiphertext!,
      row.oauthRefreshTokenCiphertext!,
    ]);
    expect(stored.includes(fresh.accessToken)).toBe(false);
    expect(stored.includes(fresh.refreshToken)).toBe(false);
    const open = (field: "oauthAccessTokenCiphertext" | "oauthRefreshTokenCiphertext") =>
      decryptField(keyring, row[field]!, bind(tenant.workspaceId, connectionId, field));
    expect(await open("oauthAccessTokenCiphertext")).toBe(fresh.accessToken);
    expect(await open("oauthRefreshTokenCiphertext")).toBe(fresh.refreshToken);
    expect(row.oauthAccessTokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 3_000_000);

    // The next calls use the stored token: no refresh while it is valid.
    await w2!.call(second, "search", { q: "c" });
    expect(oauth.refreshes).toHaveLength(1);
  });

  test("[C26] the connector's refresh() on a token still valid by its stored expiry, from another worker, spends no refresh token", async ({
    oauth,
    workers,
    oauthConnection,
    startRun,
  }) => {
    const connectionId = await oauthConnection("rejected", "rt-rejected-initial-2b7a");
    const run = await startRun("rejected", "rejected", connectionId);
    const [w1, w2] = workers.map(brokerOn);
    await w1!.call(run, "search", { q: "a" }); // expired: one refresh, stores a token with an expiry
    expect(oauth.refreshes).toHaveLength(1);
    await w2!.call(run, "search", { q: "b" });
    const secrets = mcp.calls.at(-1)!.secrets.oauth!;
    // Still valid by its stored expiry: the connector's refresh() hands it back, spending nothing.
    expect(await secrets.refresh()).toBe(secrets.accessToken);
    expect(oauth.refreshes).toHaveLength(1);
  });

  test("[C26] a refused refresh (invalid_grant) marks the connection reconnect-needed, refuses the call and fails the run", async ({
    db,
    oauth,
    workers,
    oauthConnection,
    startRun,
  }) => {
    const connectionId = await oauthConnection("refused", "rt-refused-initial-7d3e");
    const run = await startRun("refused", "refused", connectionId);
    oauth.refuse = true;
    const broker = brokerOn(workers[0]!);
    const error: unknown = await broker.call(run, "search", { q: "a" }).catch((e: unknown) => e);
    expect(isToolCallError(error, "RECONNECT_REQUIRED")).toBe(true);
    expect((error as Error).message).toMatch(/reconnect/);
    expect(mcp.calls).toHaveLength(0);

    const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.reconnectRequiredAt).not.toBeNull();
    expect(row.authError).toMatch(/reconnect/);
    expect(row.oauthRefreshTokenCiphertext).toBeNull();
    const status = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(status.status).toBe("FAILED");
    expect(status.error).toMatch(/reconnect/);

    // Another run of the workspace is refused at once; the dead refresh token is not sent again.
    const other = await startRun("refused-2", "refused", connectionId);
    const again: unknown = await broker.call(other, "search", { q: "b" }).catch((e: unknown) => e);
    expect(isToolCallError(again, "RECONNECT_REQUIRED")).toBe(true);
    expect(oauth.refreshes).toHaveLength(1);
  });

  test("[C26] owner-triggered tool discovery refreshes an expired token through the same single flight", async ({
    tenant,
    oauth,
    workers,
    oauthConnection,
  }) => {
    const connectionId = await oauthConnection("discovery", "rt-discovery-initial-5e9b");
    const seen: Array<string | null | undefined> = [];
    const listing = {
      ...mcp.connector,
      listTools: (_target: unknown, secrets: { oauth?: { accessToken: string | null } }) => {
        seen.push(secrets.oauth?.accessToken);
        return Promise.resolve([]);
      },
    };
    const discover = (database: Database) =>
      listConnectionTools({
        db: database.db,
        actor: { userId: tenant.ownerId },
        workspaceId: tenant.workspaceId,
        keyring,
        connectors: { MCP: listing },
        connectionId,
        timeoutMs: 5_000,
        oauthRefresher: tokenEndpointRefresher(fetch),
      });
    oauth.delayMs = 200;
    await Promise.all(workers.map(discover));
    expect(oauth.refreshes).toEqual(["rt-discovery-initial-5e9b"]);
    expect(seen).toEqual([oauth.issued.at(-1)!.accessToken, oauth.issued.at(-1)!.accessToken]);
  });

  test("[C26] a token endpoint that is down is not a refusal: the call fails, the connection stays usable", async ({
    db,
    workers,
    oauthConnection,
    startRun,
  }) => {
    const connectionId = await oauthConnection("down", "rt-down-initial-0c4f");
    const run = await startRun("down", "down", connectionId);
    const broken = createBroker({
      db: workers[0]!.db,
      pool: workers[0]!.pool,
      keyring,
      connectors: { MCP: mcp.connector },
      logger: createLogger({ name: "t", destination: sink.stream }),
      limits,
      oauthRefresher: tokenEndpointRefresher(() =>
        Promise.resolve(new Response("unavailable", { status: 503 })),
      ),
    });
    const error: unknown = await broken.call(run, "search", { q: "a" }).catch((e: unknown) => e);
    expect(isToolCallError(error, "CREDENTIAL_UNAVAILABLE")).toBe(true);
    const row = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(row.reconnectRequiredAt).toBeNull();
    expect(row.oauthRefreshTokenCiphertext).not.toBeNull();
  });
});

import { approveJob, deleteConnection, revokeGrant, setAllowedTools } from "@secondshift/domain";
import { upsertJobsFromConfig } from "@secondshift/repo-sync";
import {
  createRun,
  job,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
} from "@secondshift/domain/testing";
import { decryptField } from "@secondshift/crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import { AppError } from "@secondshift/errors";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { Registry } from "prom-client";
import { beforeEach, describe, expect } from "vitest";
import { openCall } from "./access-state.ts";
import { freezePlan } from "./plan.ts";
import { recordAudit } from "./audit.ts";
import { createBroker, type BrokerOptions, type BrokerRun } from "./broker.ts";
import { createBrokerMetrics } from "./metrics.ts";
import { isToolCallError } from "./refusals.ts";
import { fakeConnector } from "./testing/fake-connector.ts";

const CREDENTIAL = "sk-planted-credential-7f3a9c";
const ARG_PLANT = "planted-argument-5b1e";
const RESULT_PLANT = "planted-result-9d2c";
const limits = { timeoutMs: 300, maxResultBytes: 64, maxStringLength: 50, maxArrayItems: 5 };
const searchSchema = {
  type: "object",
  properties: { q: { type: "string" }, limit: { type: "integer" }, tags: {} },
  required: ["q"],
};

const keyring = testKeyring();
const mcp = fakeConnector("MCP", ({ args, secrets }) => ({
  content: [
    {
      type: "text",
      text: `${RESULT_PLANT} for ${String(args.q)} ${args.echo === undefined ? "" : String(secrets.credential)}`,
    },
  ],
  isError: false,
  truncated: false,
}));
const github = fakeConnector("GITHUB", ({ args, options }) => {
  if (args.repo !== options.scope.repositoryFullName)
    throw new AppError("FORBIDDEN", "Only the job's repository may be read.", {
      reason: "OUT_OF_SCOPE",
    });
  return { content: [{ type: "text", text: "commits" }], isError: false, truncated: false };
});
const sink = createMemorySink();
const masker = new SecretMasker();

const test = dbTest
  /** The workspace of the file's runs, with an MCP connection labelled "docs". */
  .extend("tenant", { scope: "file" }, async ({ db }) => {
    const tenant = await seedTenant(db);
    const tools = [
      tool("search", false, searchSchema),
      tool("echo", false, searchSchema),
      tool("write", true),
    ];
    await seedConnection(db, keyring, tenant, {
      kind: "MCP",
      label: "docs",
      tools,
      allowed: ["search", "echo", "write"],
      credential: CREDENTIAL,
    });
    return tenant;
  })
  .extend("brokerOptions", { scope: "file" }, ({ testDatabase }): BrokerOptions => ({
    db: testDatabase.db,
    pool: testDatabase.pool,
    keyring,
    connectors: { MCP: mcp.connector, GITHUB: github.connector },
    logger: createLogger({ name: "t", destination: sink.stream, masker }),
    masker,
    limits,
  }))
  .extend("broker", { scope: "file" }, ({ brokerOptions }) => createBroker(brokerOptions))
  .extend(
    "startRun",
    { scope: "file" },
    ({ db, tenant }) =>
      async (key: string, label = "docs", tools = ["search", "echo"]): Promise<BrokerRun> => {
        const { jobs } = await upsertJobsFromConfig(db, {
          workspaceId: tenant.workspaceId,
          repositoryId: tenant.repositoryId,
          commit: "c1",
          jobs: [job(key, [{ kind: "MCP", label, required: true, tools }])],
        });
        const jobId = jobs[0]!.jobId;
        const row = await db.job.findUniqueOrThrow({ where: { id: jobId } });
        // The owner binds the group to the connection of that label (C01: a label alone binds nothing).
        const connection = await db.connection.findFirst({
          where: { workspaceId: tenant.workspaceId, kind: "MCP", label, deletedAt: null },
        });
        await approveJob(
          { db, actor: { userId: tenant.ownerId }, workspaceId: tenant.workspaceId },
          {
            jobId,
            requestHash: row.requestHash,
            ...(connection ? { bindings: { [`MCP:${label}`]: connection.id } } : {}),
          },
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
  )
  /** The workspace owner's actor context. */
  .extend("owner", { scope: "file" }, ({ db, tenant }) => ({
    db,
    actor: { userId: tenant.ownerId },
    workspaceId: tenant.workspaceId,
  }))
  .extend(
    "audits",
    { scope: "file" },
    ({ db }) =>
      (runId: string) =>
        db.auditEvent.findMany({ where: { actorId: runId }, orderBy: { createdAt: "asc" } }),
  )
  /** The outcome of each of a run's audit rows, and whether it has a duration. */
  .extend(
    "outcomes",
    { scope: "file" },
    ({ audits }) =>
      async (runId: string) =>
        (await audits(runId)).map((r) => [r.outcome, r.durationMs === null ? null : "ms"]),
  )
  /** A refusal: the reason, no connector call, exactly one audit row for the call. */
  .extend(
    "expectRefused",
    { scope: "file" },
    ({ broker, audits }) =>
      async (run: BrokerRun, name: string, args: unknown, reason: string) => {
        const before = (await audits(run.id)).length;
        const calls = mcp.calls.length + github.calls.length;
        const error = await broker.call(run, name, args).then(
          () => null,
          (e: unknown) => e,
        );
        expect(isToolCallError(error) ? error.reason : error).toBe(reason);
        expect(mcp.calls.length + github.calls.length).toBe(calls);
        const after = await audits(run.id);
        expect(after).toHaveLength(before + 1);
        expect(after.at(-1)?.outcome).toBe(reason);
        return error as Error;
      },
  )
  /** A test-only trigger refuses audit writes of chosen runs (INSERT or UPDATE). */
  .extend("refuseAudit", { scope: "file" }, async ({ db }) => {
    await db.$executeRawUnsafe(
      `CREATE TABLE IF NOT EXISTS audit_refused (run_id text NOT NULL, op text NOT NULL)`,
    );
    await db.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION audit_refused_check() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM audit_refused WHERE run_id = NEW."actorId" AND op = TG_OP) THEN
          RAISE EXCEPTION 'audit write refused by the test';
        END IF;
        RETURN NEW;
      END $$`);
    await db.$executeRawUnsafe(`
      CREATE OR REPLACE TRIGGER audit_refused BEFORE INSERT OR UPDATE ON "AuditEvent"
      FOR EACH ROW EXECUTE FUNCTION audit_refused_check()`);
    return (runId: string, op: "INSERT" | "UPDATE") =>
      db.$executeRawUnsafe(`INSERT INTO audit_refused VALUES ($1, $2)`, runId, op);
  });

beforeEach(() => {
  mcp.calls.length = 0;
  github.calls.length = 0;
});

describe("broker", () => {
  test("calls the connector with the decrypted credential and returns untrusted data; one audit row", async ({
    broker,
    startRun,
    audits,
  }) => {
    const run = await startRun("happy");
    const result = await broker.call(run, "search", { q: "x" });
    expect(result).toMatchObject({
      untrusted: true,
      tool: "search",
      isError: false,
      truncated: false,
    });
    expect(mcp.calls).toHaveLength(1);
    expect(mcp.calls[0]?.secrets.credential).toBe(CREDENTIAL);
    expect(mcp.calls[0]?.options.scope).toEqual({ repositoryFullName: "acme/app", runId: run.id });
    const rows = await audits(run.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorType: "RUN",
      action: "tool.call",
      toolName: "search",
      outcome: "ok",
      targetType: null,
      targetId: null,
    });
  });

  test("[C18] refuses a tool that is not in the plan, its case variants and look-alikes", async ({
    startRun,
    audits,
    expectRefused,
  }) => {
    const run = await startRun("c18");
    for (const name of [
      "write",
      "Search",
      "SEARCH",
      "search ",
      "s\u0435arch",
      "search\u200b",
      "searc",
      "",
      "docs.search",
    ]) {
      await expectRefused(run, name, { q: "x" }, "NOT_IN_PLAN");
    }
    await expectRefused(run, 42 as unknown as string, { q: "x" }, "NOT_IN_PLAN");
    expect((await audits(run.id)).every((row) => row.toolName === null)).toBe(true);
  });

  test("[C19] refuses arguments that break the schema: type, extra property, oversize, coercion", async ({
    db,
    startRun,
    expectRefused,
  }) => {
    const run = await startRun("c19");
    await expectRefused(run, "search", { q: 1 }, "INVALID_ARGUMENTS");
    await expectRefused(run, "search", { q: "x", evil: true }, "INVALID_ARGUMENTS");
    await expectRefused(run, "search", { q: "x".repeat(51) }, "INVALID_ARGUMENTS");
    await expectRefused(run, "search", { q: "x", tags: [1, 2, 3, 4, 5, 6] }, "INVALID_ARGUMENTS");
    await expectRefused(
      run,
      "search",
      { q: "x", tags: { deep: "y".repeat(51) } },
      "INVALID_ARGUMENTS",
    );
    await expectRefused(run, "search", { q: "x", limit: "5" }, "INVALID_ARGUMENTS");
    await expectRefused(run, "search", {}, "INVALID_ARGUMENTS");
    await expectRefused(run, "search", [], "INVALID_ARGUMENTS");
    await expectRefused(run, "search", null, "INVALID_ARGUMENTS");
    expect((await db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("RUNNING");
  });

  test("[C06] revoking the grant mid-run refuses the next call and marks the run; every later call fails", async ({
    db,
    broker,
    startRun,
    owner,
    expectRefused,
  }) => {
    const run = await startRun("c06-grant");
    await broker.call(run, "search", { q: "x" });
    const grant = await db.grant.findFirstOrThrow({
      where: { jobId: run.jobId, revokedAt: null },
    });
    await revokeGrant(owner, { grantId: grant.id });
    await expectRefused(run, "search", { q: "x" }, "GRANT_REVOKED");
    const row = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.status).toBe("REVOKED");
    expect(row.error).toContain("revoked");
    await expectRefused(run, "search", { q: "x" }, "RUN_NOT_ACTIVE");
  });

  test("[C06] removing a tool from the connection's allowed list refuses the next call and marks the run", async ({
    db,
    tenant,
    broker,
    startRun,
    owner,
    expectRefused,
  }) => {
    const conn = await seedConnection(db, keyring, tenant, {
      kind: "MCP",
      label: "allowed",
      tools: [tool("search", false, searchSchema), tool("echo")],
      allowed: ["search", "echo"],
    });
    const run = await startRun("c06-tool", "allowed");
    await broker.call(run, "search", { q: "x" });
    await setAllowedTools(owner, { connectionId: conn, tools: ["echo"] });
    await expectRefused(run, "search", { q: "x" }, "TOOL_NOT_ALLOWED");
    expect((await db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("REVOKED");
  });

  test("[C06] deleting the connection refuses the next call and marks the run", async ({
    db,
    tenant,
    broker,
    startRun,
    owner,
    expectRefused,
  }) => {
    const conn = await seedConnection(db, keyring, tenant, {
      kind: "MCP",
      label: "gone",
      tools: [tool("search", false, searchSchema), tool("echo")],
      allowed: ["search", "echo"],
    });
    const run = await startRun("c06-conn", "gone");
    await broker.call(run, "search", { q: "x" });
    await deleteConnection(owner, { connectionId: conn });
    // Deleting a connection also revokes the grants that use it, so the grant check refuses first.
    await expectRefused(run, "search", { q: "x" }, "GRANT_REVOKED");
    expect((await db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("REVOKED");
  });

  test("[C04] a request changed in the repository mid-run refuses the next call", async ({
    db,
    tenant,
    startRun,
    expectRefused,
  }) => {
    const run = await startRun("c04");
    await upsertJobsFromConfig(db, {
      workspaceId: tenant.workspaceId,
      repositoryId: tenant.repositoryId,
      commit: "c2",
      jobs: [
        job("c04", [
          { kind: "MCP", label: "docs", required: true, tools: ["search", "echo", "write"] },
        ]),
      ],
    });
    await expectRefused(run, "search", { q: "x" }, "REQUEST_CHANGED");
  });

  test("[C22] passes the job's repository as scope; a call naming another repository is refused and audited", async ({
    db,
    tenant,
    broker,
    owner,
    audits,
  }) => {
    await seedConnection(db, keyring, tenant, {
      kind: "GITHUB",
      label: "gh",
      tools: [
        tool("list_commits", false, {
          type: "object",
          properties: { repo: { type: "string" } },
          required: ["repo"],
        }),
      ],
      allowed: ["list_commits"],
      credential: "ghp_planted_token_123456",
    });
    const { jobs } = await upsertJobsFromConfig(db, {
      workspaceId: tenant.workspaceId,
      repositoryId: tenant.repositoryId,
      commit: "c1",
      jobs: [
        job("c22", [{ kind: "GITHUB", label: null, required: true, tools: ["list_commits"] }]),
      ],
    });
    const jobId = jobs[0]!.jobId;
    const hash = (await db.job.findUniqueOrThrow({ where: { id: jobId } })).requestHash;
    await approveJob(owner, { jobId, requestHash: hash });
    const runId = await createRun(db, tenant.workspaceId, jobId);
    await freezePlan(db, { workspaceId: tenant.workspaceId, runId });
    const run = {
      id: runId,
      workspaceId: tenant.workspaceId,
      jobId,
      repositoryFullName: "acme/app",
    };
    expect((await broker.call(run, "list_commits", { repo: "acme/app" })).content[0]?.text).toBe(
      "commits",
    );
    const error = await broker.call(run, "list_commits", { repo: "victim/secret" }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(isToolCallError(error, "OUT_OF_SCOPE")).toBe(true);
    expect(github.calls.map((c) => c.options.scope.repositoryFullName)).toEqual([
      "acme/app",
      "acme/app",
    ]);
    const rows = await audits(run.id);
    expect(rows.map((r) => r.outcome)).toEqual(["ok", "OUT_OF_SCOPE"]);
  });

  test("[C25] credentials never appear in audit rows, results, errors or logs", async ({
    db,
    testDatabase,
    broker,
    startRun,
  }) => {
    const run = await startRun("c25");
    const echoed = await broker.call(run, "echo", { q: "x", echo: "yes" }).catch((e: unknown) => e);
    // echo's schema has no `echo` property: refused before any decryption
    expect(isToolCallError(echoed, "INVALID_ARGUMENTS")).toBe(true);
    const leaky = fakeConnector("MCP", ({ secrets }) => {
      throw new AppError("BAD_GATEWAY", `upstream said: bad token ${String(secrets.credential)}`, {
        reason: "UPSTREAM_ERROR",
      });
    });
    const echo = fakeConnector("MCP", ({ secrets }) => ({
      content: [{ type: "text", text: `token=${String(secrets.credential)}` }],
      isError: false,
      truncated: false,
    }));
    const logger = createLogger({ name: "t", destination: sink.stream, masker });
    const echoBroker = createBroker({
      db: db,
      pool: testDatabase.pool,
      keyring,
      connectors: { MCP: echo.connector },
      logger,
      masker,
      limits,
    });
    const result = await echoBroker.call(run, "search", { q: "x" });
    expect(JSON.stringify(result)).not.toContain(CREDENTIAL);
    const leakyBroker = createBroker({
      db: db,
      pool: testDatabase.pool,
      keyring,
      connectors: { MCP: leaky.connector },
      logger,
      masker,
      limits,
    });
    const error = (await leakyBroker
      .call(run, "search", { q: "x" })
      .catch((e: unknown) => e)) as Error;
    expect(isToolCallError(error, "CONNECTOR_FAILED")).toBe(true);
    expect(`${error.message} ${JSON.stringify(error)} ${error.stack ?? ""}`).not.toContain(
      CREDENTIAL,
    );
    const rows = await db.auditEvent.findMany();
    expect(JSON.stringify(rows)).not.toContain(CREDENTIAL);
    expect(sink.text()).not.toContain(CREDENTIAL);
  });

  test("[C29] audit rows hold ids, tool, connection, outcome and duration — never argument or result text", async ({
    db,
    broker,
    startRun,
    audits,
  }) => {
    const run = await startRun("c29");
    await broker.call(run, "search", { q: ARG_PLANT });
    await broker.call(run, "search", { q: ARG_PLANT, extra: ARG_PLANT }).catch(() => undefined);
    await broker.call(run, ARG_PLANT, { q: ARG_PLANT }).catch(() => undefined);
    const rows = await audits(run.id);
    expect(rows).toHaveLength(3);
    const text = JSON.stringify(await db.$queryRawUnsafe(`SELECT * FROM "AuditEvent"`));
    expect(text).not.toContain(ARG_PLANT);
    expect(text).not.toContain(RESULT_PLANT);
    for (const row of rows) {
      expect(Object.keys(row).sort()).toEqual([
        "action",
        "actorId",
        "actorType",
        "connectionId",
        "createdAt",
        "durationMs",
        "id",
        "outcome",
        "targetId",
        "targetLabel",
        "targetType",
        "toolName",
        "workspaceId",
      ]);
      // The connection's label as the call saw it, or none when no connection was reached.
      expect(row.targetLabel).toBe(row.connectionId === null ? null : "docs");
      expect(row).toMatchObject({
        actorType: "RUN",
        actorId: run.id,
        action: "tool.call",
        targetType: null,
        targetId: null,
      });
      expect(typeof row.durationMs).toBe("number");
      expect(row.outcome).not.toBe("started");
    }
  });

  test("a tool call's row names the connection as the call saw it: one line, kept after a rename", async ({
    db,
    broker,
    startRun,
    audits,
    tenant,
  }) => {
    const run = await startRun("labels");
    const where = { workspaceId: tenant.workspaceId, kind: "MCP" as const, label: "docs" };
    const connection = await db.connection.findFirstOrThrow({ where });
    await db.connection.update({
      where: { id: connection.id },
      data: { label: "docs\nfake row\u202e\u200bx" },
    });
    try {
      await broker.call(run, "search", { q: "x" });
    } finally {
      await db.connection.update({ where: { id: connection.id }, data: { label: "docs" } });
    }
    const [row] = await audits(run.id);
    expect(row?.targetLabel).toBe("docs fake row x");
  });

  test("[P05] a run id used with another workspace behaves as not found", async ({
    db,
    broker,
    startRun,
  }) => {
    const run = await startRun("p05");
    const other = await seedTenant(db, "other");
    const error = await broker
      .call({ ...run, workspaceId: other.workspaceId }, "search", { q: "x" })
      .catch((e: unknown) => e);
    expect(isToolCallError(error, "RUN_NOT_ACTIVE")).toBe(true);
    expect(mcp.calls).toHaveLength(0);
    expect((await db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("RUNNING");
  });

  test("times out slow tools and caps large results", async ({ db, testDatabase, startRun }) => {
    const run = await startRun("limits");
    const slow = fakeConnector("MCP", () => new Promise(() => undefined));
    const slowBroker = createBroker({
      db: db,
      pool: testDatabase.pool,
      keyring,
      connectors: { MCP: slow.connector },
      logger: createLogger({ name: "t", destination: sink.stream }),
      limits,
    });
    const error = await slowBroker.call(run, "search", { q: "x" }).catch((e: unknown) => e);
    expect(isToolCallError(error, "TIMEOUT")).toBe(true);
    expect(slow.calls[0]?.options.signal.aborted).toBe(true);
    const big = fakeConnector("MCP", () => ({
      content: [{ type: "text", text: "é".repeat(100) }],
      isError: false,
      truncated: false,
    }));
    const bigBroker = createBroker({
      db: db,
      pool: testDatabase.pool,
      keyring,
      connectors: { MCP: big.connector },
      logger: createLogger({ name: "t", destination: sink.stream }),
      limits,
    });
    const result = await bigBroker.call(run, "search", { q: "x" });
    expect(result.truncated).toBe(true);
    expect(Buffer.byteLength(result.content[0]?.text ?? "")).toBeLessThanOrEqual(64);
  });

  test("[C26] the refresh token is used only when the access token expired; new tokens are re-encrypted", async ({
    db,
    testDatabase,
    tenant,
    startRun,
  }) => {
    const refreshed: string[] = [];
    const refresher = ({ refreshToken }: { refreshToken: string }) => {
      refreshed.push(refreshToken);
      return Promise.resolve({
        accessToken: "at-new-123456",
        refreshToken: "rt-new-123456",
        expiresAt: new Date(Date.now() + 3600_000),
      });
    };
    const tools = [tool("search", false, searchSchema), tool("echo")];
    const conn = await seedConnection(db, keyring, tenant, {
      kind: "MCP",
      label: "oauth",
      tools,
      allowed: ["search", "echo"],
      authType: "OAUTH",
      oauth: {
        accessToken: "at-old-123456",
        refreshToken: "rt-old-123456",
        expiresAt: new Date(Date.now() + 3600_000),
        config: { tokenEndpoint: "https://auth.example/token" },
      },
    });
    const run = await startRun("c26", "oauth");
    const oauthBroker = createBroker({
      db: db,
      pool: testDatabase.pool,
      keyring,
      connectors: { MCP: mcp.connector },
      logger: createLogger({ name: "t", destination: sink.stream }),
      limits,
      oauthRefresher: refresher,
    });
    await oauthBroker.call(run, "search", { q: "x" });
    expect(mcp.calls.at(-1)?.secrets.oauth?.accessToken).toBe("at-old-123456");
    expect(await mcp.calls.at(-1)?.secrets.oauth?.refresh()).toBe("at-old-123456"); // still valid: no refresh
    expect(refreshed).toEqual([]);
    await db.connection.update({
      where: { id: conn },
      data: { oauthAccessTokenExpiresAt: new Date(Date.now() - 1000) },
    });
    await oauthBroker.call(run, "search", { q: "x" });
    expect(refreshed).toEqual(["rt-old-123456"]);
    expect(mcp.calls.at(-1)?.secrets.oauth?.accessToken).toBe("at-new-123456");
    const row = await db.connection.findUniqueOrThrow({ where: { id: conn } });
    const bind = (field: string) => ({
      workspaceId: tenant.workspaceId,
      table: "Connection",
      rowId: conn,
      field,
    });
    expect(
      await decryptField(
        keyring,
        row.oauthAccessTokenCiphertext!,
        bind("oauthAccessTokenCiphertext"),
      ),
    ).toBe("at-new-123456");
    expect(
      await decryptField(
        keyring,
        row.oauthRefreshTokenCiphertext!,
        bind("oauthRefreshTokenCiphertext"),
      ),
    ).toBe("rt-new-123456");
  });
});

describe("the per-call statement", () => {
  test("[C06] reads the connection's current access state, OAuth ciphertexts and expiry included", async ({
    db,
    testDatabase,
    tenant,
    startRun,
  }) => {
    const expiresAt = new Date(Date.now() + 3600_123);
    const connectionId = await seedConnection(db, keyring, tenant, {
      kind: "MCP",
      label: "oauth-state",
      tools: [tool("search", false, searchSchema)],
      allowed: ["search"],
      authType: "OAUTH",
      settings: { region: "eu" },
      oauth: {
        accessToken: "at-state-123456",
        refreshToken: "rt-state-123456",
        expiresAt,
        config: { tokenEndpoint: "https://auth.example/token" },
      },
    });
    const run = await startRun("call-state", "oauth-state", ["search"]);
    const { plan } = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    const ids = {
      workspaceId: tenant.workspaceId,
      runId: run.id,
      grantId: (plan as { grantId: string }).grantId,
      connectionId,
      tool: "search",
      toolName: "search",
    };
    const read = () => openCall(testDatabase.pool, { ...ids, auditId: crypto.randomUUID() });
    // Twice: the second execution uses the statement prepared on the connection.
    const first = await read();
    const state = await read();
    expect(state).toEqual(first);
    const stored = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(state).toMatchObject({
      runStatus: "RUNNING",
      grantFound: true,
      grantRevoked: false,
      connectionFound: true,
      connectionDeleted: false,
      allowedTools: ["search"],
      granted: true,
      connection: {
        authType: "OAUTH",
        settings: { region: "eu" },
        credentialCiphertext: null,
        oauthAccessTokenCiphertext: new Uint8Array(stored.oauthAccessTokenCiphertext!),
        oauthRefreshTokenCiphertext: new Uint8Array(stored.oauthRefreshTokenCiphertext!),
        oauthAccessTokenExpiresAt: expiresAt,
        oauthConfig: { tokenEndpoint: "https://auth.example/token" },
      },
    });
    expect(state?.grantHash).toBe(state?.jobHash);
    expect(
      await openCall(testDatabase.pool, {
        ...ids,
        connectionId: "missing",
        tool: "x",
        auditId: crypto.randomUUID(),
      }),
    ).toMatchObject({ connectionFound: false, granted: false });
    expect(
      await openCall(testDatabase.pool, { ...ids, runId: "missing", auditId: crypto.randomUUID() }),
    ).toBeNull();
  });
});

// The audit row is written ahead ('started', with the access re-read) and completed by one
// awaited statement before the call returns.
describe("write-ahead audit", () => {
  const gate = () => {
    let release!: () => void;
    const opened = new Promise<void>((resolve) => (release = resolve));
    return { opened, release };
  };
  let gates: Array<ReturnType<typeof gate>> = [];
  const blocking = fakeConnector("MCP", async ({ args }) => {
    const g = gate();
    gates.push(g);
    await g.opened;
    return {
      content: [{ type: "text", text: `${RESULT_PLANT} ${String(args.q)}` }],
      isError: args.q === "tool-error",
      truncated: false,
    };
  });
  const memory = createMemorySink();
  const make = ({ db, pool }: Pick<BrokerOptions, "db" | "pool">) =>
    createBroker({
      db,
      pool,
      keyring,
      connectors: { MCP: blocking.connector },
      logger: createLogger({ name: "t", destination: memory.stream, masker }),
      masker,
      limits: { ...limits, timeoutMs: 5_000 },
    });
  /** Waits until the connector holds `n` calls (the broker got past every check). */
  const inFlight = async (n: number) => {
    for (let i = 0; i < 500 && gates.length < n; i++) await new Promise((r) => setTimeout(r, 5));
    expect(gates).toHaveLength(n);
  };
  beforeEach(() => {
    gates = [];
    blocking.calls.length = 0;
  });

  test("[C29] the row exists as 'started' while the connector call is in flight and is complete when the call returns", async ({
    testDatabase,
    startRun,
    audits,
  }) => {
    const b = make(testDatabase);
    const run = await startRun("ahead");
    const call = b.call(run, "search", { q: ARG_PLANT });
    await inFlight(1);
    const [row] = await audits(run.id);
    expect(row).toMatchObject({
      actorType: "RUN",
      actorId: run.id,
      action: "tool.call",
      toolName: "search",
      outcome: "started",
      durationMs: null,
      targetType: null,
      targetId: null,
    });
    expect(row?.connectionId).toBe(blocking.calls[0]?.target.connectionId);
    await new Promise((r) => setTimeout(r, 30));
    gates[0]?.release();
    expect((await call).content[0]?.text).toContain(RESULT_PLANT);
    const [done] = await audits(run.id);
    expect(done?.outcome).toBe("ok");
    expect(done?.durationMs).toBeGreaterThanOrEqual(25);
    expect(done?.createdAt).toEqual(row?.createdAt);
  });

  test("[C29] a tool error is recorded as such before the call returns", async ({
    testDatabase,
    startRun,
    outcomes,
  }) => {
    const b = make(testDatabase);
    const run = await startRun("tool-error");
    const call = b.call(run, "search", { q: "tool-error" });
    await inFlight(1);
    gates[0]?.release();
    expect((await call).isError).toBe(true);
    expect(await outcomes(run.id)).toEqual([["tool_error", "ms"]]);
  });

  test("[C29] release() at the run's end drops its plan; a call still in flight is completed when it ends", async ({
    db,
    testDatabase,
    startRun,
    outcomes,
  }) => {
    const b = make(testDatabase);
    const run = await startRun("release");
    // A call the agent loop gave up on (cancelled run) is still at the connector.
    const late = b.call(run, "search", { q: "late" });
    await inFlight(1);
    b.release(run.id);
    expect(await outcomes(run.id)).toEqual([["started", null]]);
    gates[0]?.release();
    await late;
    expect(await outcomes(run.id)).toEqual([["ok", "ms"]]);
    // The plan is read again on the next use: a released run's plan is not kept.
    await db.run.update({ where: { id: run.id }, data: { plan: {} } });
    const error = await b.call(run, "search", { q: "x" }).catch((e: unknown) => e);
    expect(isToolCallError(error, "RUN_NOT_ACTIVE")).toBe(true);
  });

  test("[C29] exactly one row per call, parallel calls included, and never argument or result text", async ({
    db,
    testDatabase,
    startRun,
    audits,
  }) => {
    const b = make(testDatabase);
    const run = await startRun("one-per-call");
    const calls = [
      b.call(run, "search", { q: ARG_PLANT }),
      b.call(run, "echo", { q: ARG_PLANT }),
      b.call(run, "search", { q: ARG_PLANT, extra: ARG_PLANT }).catch((e: unknown) => e),
      b.call(run, "missing", { q: ARG_PLANT }).catch((e: unknown) => e),
    ];
    await inFlight(2);
    for (const g of gates) g.release();
    await Promise.all(calls);
    const rows = await audits(run.id);
    expect(rows.map((r) => [r.toolName, r.outcome]).sort()).toEqual(
      [
        ["echo", "ok"],
        ["search", "INVALID_ARGUMENTS"],
        ["search", "ok"],
        [null, "NOT_IN_PLAN"],
      ].sort(),
    );
    expect(new Set(rows.map((r) => r.id)).size).toBe(4);
    const text = JSON.stringify(await db.$queryRawUnsafe(`SELECT * FROM "AuditEvent"`));
    expect(text).not.toContain(ARG_PLANT);
    expect(text).not.toContain(RESULT_PLANT);
  });

  test("[C29] an outcome that cannot be written refuses the call with AUDIT_UNAVAILABLE and fails the run; logged without arguments", async ({
    db,
    testDatabase,
    startRun,
    outcomes,
    refuseAudit,
  }) => {
    const b = make(testDatabase);
    const run = await startRun("outcome-fails");
    await refuseAudit(run.id, "UPDATE");
    const call = b.call(run, "search", { q: ARG_PLANT });
    await inFlight(1);
    gates[0]?.release();
    const refused = await call.catch((e: unknown) => e);
    expect(isToolCallError(refused, "AUDIT_UNAVAILABLE")).toBe(true);
    expect(JSON.stringify(refused)).not.toContain(RESULT_PLANT);
    expect(memory.text()).toContain("broker audit write failed");
    expect(memory.text()).not.toContain(ARG_PLANT);
    const row = await db.run.findUniqueOrThrow({ where: { id: run.id } });
    expect(row.status).toBe("FAILED");
    expect(row.error).toContain("audit");
    // The attempt stays on record as 'started'; the run's next call is refused (and recorded,
    // once the database takes writes again).
    expect(await outcomes(run.id)).toEqual([["started", null]]);
    await db.$executeRawUnsafe(`DELETE FROM audit_refused WHERE run_id = $1`, run.id);
    const next = await b.call(run, "search", { q: "x" }).catch((e: unknown) => e);
    expect(isToolCallError(next, "RUN_NOT_ACTIVE")).toBe(true);
    expect(blocking.calls).toHaveLength(1);
    expect(await outcomes(run.id)).toEqual([
      ["started", null],
      ["RUN_NOT_ACTIVE", "ms"],
    ]);
  });

  test("[C29] a call whose row cannot be written ahead never reaches the connector and fails the run", async ({
    db,
    testDatabase,
    startRun,
    refuseAudit,
  }) => {
    const b = make(testDatabase);
    const run = await startRun("insert-fails");
    await refuseAudit(run.id, "INSERT");
    const refused = await b.call(run, "search", { q: "x" }).catch((e: unknown) => e);
    expect(isToolCallError(refused, "AUDIT_UNAVAILABLE")).toBe(true);
    expect(blocking.calls).toHaveLength(0);
    expect((await db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("FAILED");
  });

  test("[C29][P05] an outcome completes only a 'started' row of its own run and workspace; a retry changes nothing", async ({
    db,
    testDatabase,
    startRun,
    audits,
  }) => {
    const b = make(testDatabase);
    const run = await startRun("scope");
    const call = b.call(run, "search", { q: "x" });
    await inFlight(1);
    const [row] = await audits(run.id);
    const logger = createLogger({ name: "t", destination: memory.stream });
    const write = (key: { runId: string; workspaceId: string }, outcome: string) =>
      recordAudit(testDatabase.pool, logger, key, {
        id: row!.id,
        toolName: "forged",
        connectionId: null,
        outcome,
        durationMs: 1,
      });
    const other = await seedTenant(db, "scope-other");
    await write({ runId: run.id, workspaceId: other.workspaceId }, "ok"); // another workspace
    await write({ runId: "another-run", workspaceId: run.workspaceId }, "ok"); // another run
    expect(await audits(run.id)).toMatchObject([
      { id: row!.id, outcome: "started", toolName: "search" },
    ]);
    gates[0]?.release();
    await call;
    await write({ runId: run.id, workspaceId: run.workspaceId }, "TIMEOUT"); // a late retry
    const rows = await db.auditEvent.findMany({ where: { id: row!.id } });
    expect(rows).toMatchObject([
      { outcome: "ok", toolName: "search", workspaceId: run.workspaceId },
    ]);
  });

  test("[C06] a revocation between two calls is seen by the second one, which is recorded before it is refused", async ({
    db,
    testDatabase,
    startRun,
    owner,
    outcomes,
  }) => {
    const b = make(testDatabase);
    const run = await startRun("revoke-between");
    const first = b.call(run, "search", { q: "x" });
    await inFlight(1);
    gates[0]?.release();
    await first;
    const grant = await db.grant.findFirstOrThrow({
      where: { jobId: run.jobId, revokedAt: null },
    });
    await revokeGrant(owner, { grantId: grant.id });
    const refused = await b.call(run, "search", { q: "x" }).catch((e: unknown) => e);
    expect(isToolCallError(refused, "GRANT_REVOKED")).toBe(true);
    expect(blocking.calls).toHaveLength(1);
    expect(await outcomes(run.id)).toEqual([
      ["ok", "ms"],
      ["GRANT_REVOKED", "ms"],
    ]);
    expect((await db.run.findUniqueOrThrow({ where: { id: run.id } })).status).toBe("REVOKED");
  });
});

describe("broker metrics", () => {
  test("counts calls by outcome and refusals by reason", async ({ brokerOptions, startRun }) => {
    const registry = new Registry();
    const counted = createBroker({ ...brokerOptions, metrics: createBrokerMetrics(registry) });
    const run = await startRun("metrics");
    await counted.call(run, "search", { q: "x" });
    await expect(counted.call(run, "write", { q: "x" })).rejects.toThrow();
    await expect(counted.call(run, "search", { q: 42 })).rejects.toThrow();
    await expect(counted.call(run, "search", { q: 42 })).rejects.toThrow();
    const text = await registry.metrics();
    expect(text).toContain('secondshift_broker_calls_total{outcome="ok"} 1');
    expect(text).toContain('secondshift_broker_calls_total{outcome="refused"} 3');
    expect(text).toContain('secondshift_broker_refusals_total{reason="NOT_IN_PLAN"} 1');
    expect(text).toContain('secondshift_broker_refusals_total{reason="INVALID_ARGUMENTS"} 2');
    // Every reason is there from the start, at 0.
    expect(text).toContain('secondshift_broker_refusals_total{reason="GRANT_REVOKED"} 0');
  });
});

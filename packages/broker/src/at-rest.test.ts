// At rest, the database holds no credential in the clear (C23, P06): every credential kind is
// written through the code that writes it in production, then every text, bytes, JSON and array
// column of every table is scanned for each plaintext and its base64 forms.
//
// Why here: this package imports every production writer without a cycle — the owner's use cases
// (@secondshift/domain: connections of each auth kind) and the broker's own writer of refreshed
// OAuth tokens; domain cannot import the broker.
import {
  addRepository,
  createConnection,
  createModelProvider,
  createWebhook,
  setConnectionWebhookSecret,
} from "@secondshift/domain";
import { encryptField } from "@secondshift/crypto";
import {
  createRun,
  seedJob,
  seedTenant,
  testKeyring,
  type Tenant,
} from "@secondshift/domain/testing";
import { encryptedColumns, type Db, type Pool } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { SecretMasker } from "@secondshift/logging";
import { randomUUID } from "node:crypto";
import { describe, expect } from "vitest";
import { refreshUnderLock } from "./oauth-refresh.ts";
import { tokenEndpointRefresher } from "./secrets.ts";
import { startFakeOAuthServer, type FakeOAuthServer } from "./testing/oauth-server.ts";

const keyring = testKeyring();

const test = dbTest
  .extend("tenant", { scope: "file" }, ({ db }) => seedTenant(db))
  /** A loopback OAuth token endpoint. */
  // eslint-disable-next-line no-empty-pattern -- Vitest requires a destructuring pattern here.
  .extend("oauth", { scope: "file" }, async ({}, { onCleanup }) => {
    const oauth = await startFakeOAuthServer(3600);
    onCleanup(() => oauth.stop());
    return oauth;
  })
  /** The workspace owner's actor context for the owner's use cases. */
  .extend("owner", { scope: "file" }, ({ db, tenant }) => ({
    db,
    keyring,
    actor: { userId: tenant.ownerId },
    workspaceId: tenant.workspaceId,
  }));

type Owner = Parameters<typeof createConnection>[0];

/** Every plaintext written below, by what it is. */
const planted = new Map<string, string>();
const plant = (what: string) => {
  const value = `${what}-${randomUUID()}`;
  planted.set(what, value);
  return value;
};

const SCANNED_TYPES = ["text", "character varying", "bytea", "json", "jsonb", "ARRAY"];

/** Where each needle (or its base64 / base64url form) occurs: "Table.column: what (form)". */
async function scanDatabase(pool: Pool, needles: ReadonlyMap<string, string>): Promise<string[]> {
  const { rows: columns } = await pool.query<{ table: string; column: string; type: string }>(
    `SELECT table_name AS "table", column_name AS "column", data_type AS "type"
       FROM information_schema.columns
      WHERE table_schema = 'public' AND data_type = ANY($1)`,
    [SCANNED_TYPES],
  );
  const forms = [...needles].flatMap(([what, value]) => [
    { what: `${what} (plaintext)`, text: value },
    { what: `${what} (base64)`, text: Buffer.from(value).toString("base64") },
    { what: `${what} (base64url)`, text: Buffer.from(value).toString("base64url") },
  ]);
  const hits: string[] = [];
  for (const { table, column, type } of columns) {
    const select = type === "bytea" ? `"${column}"` : `"${column}"::text`;
    const { rows } = await pool.query<{ v: Buffer | string }>(
      `SELECT ${select} AS v FROM "${table}" WHERE "${column}" IS NOT NULL`,
    );
    for (const { v } of rows)
      for (const form of forms)
        if (Buffer.isBuffer(v) ? v.includes(form.text) : v.includes(form.text))
          hits.push(`${table}.${column}: ${form.what}`);
  }
  return hits;
}

/** Connections of every auth kind through the owner's use case. */
async function writeConnections(owner: Owner, oauth: FakeOAuthServer): Promise<string> {
  const base = { kind: "MCP" as const, endpoint: "https://mcp.example.com/mcp" };
  await createConnection(owner, {
    ...base,
    label: "bearer",
    authType: "BEARER",
    credential: plant("bearer credential"),
  });
  await createConnection(owner, {
    ...base,
    label: "header",
    authType: "HEADER",
    authHeaderName: "X-Api-Key",
    credential: plant("header credential"),
  });
  const app = await createConnection(owner, {
    kind: "GITHUB",
    label: "github",
    endpoint: "https://api.github.com",
    authType: "GITHUB_APP",
    // Checked at creation to look like a PEM key; the planted text is its body.
    credential: `-----BEGIN RSA PRIVATE KEY-----\n${plant("GitHub App private key")}\n-----END RSA PRIVATE KEY-----\n`,
    settings: { appId: 12345, installationId: 678 },
  });
  const appWebhook = await setConnectionWebhookSecret(owner, { connectionId: app.id });
  planted.set("GitHub App webhook secret", appWebhook.webhookSecret);
  const refreshToken = plant("OAuth refresh token (connect)");
  oauth.valid.add(refreshToken);
  const { id } = await createConnection(owner, {
    ...base,
    label: "oauth",
    authType: "OAUTH",
    oauth: {
      accessToken: plant("OAuth access token (connect)"),
      refreshToken,
      expiresAt: new Date(Date.now() - 1_000),
      config: { tokenEndpoint: oauth.tokenEndpoint, clientId: "public-client" },
    },
  });
  return id;
}

/** The broker's writer of refreshed OAuth tokens, against the loopback token endpoint. */
async function refreshOAuth(
  { db, tenant, oauth }: { db: Db; tenant: Tenant; oauth: FakeOAuthServer },
  connectionId: string,
): Promise<void> {
  const fresh = await refreshUnderLock(
    {
      db,
      keyring,
      masker: new SecretMasker(),
      refresher: tokenEndpointRefresher(fetch),
      now: () => new Date(),
    },
    { workspaceId: tenant.workspaceId, connectionId },
    { stale: planted.get("OAuth access token (connect)") ?? null, rejected: false },
    AbortSignal.timeout(5_000),
  );
  const issued = oauth.issued.at(-1)!;
  expect(fresh.accessToken).toBe(issued.accessToken);
  planted.set("OAuth access token (refreshed)", issued.accessToken);
  planted.set("OAuth refresh token (refreshed)", issued.refreshToken);
}

/**
 * Stand-ins, sealed exactly as the readers (gateway, webhook delivery, push hooks) expect: this
 * tree has no owner use case yet that writes a model provider key, a webhook or a repository's
 * push secret. When `@secondshift/domain` gains them, call them here instead.
 */
/** Provider key, webhook URL and secret, repository push secret: each through its use case. */
async function writeOtherSecrets(owner: Owner): Promise<void> {
  const ctx = {
    ...owner,
    services: {
      enqueueRun: () => Promise.resolve(),
      syncSchedules: () => Promise.resolve(),
      requestSync: () => Promise.resolve(),
    },
  };
  await createModelProvider(ctx, {
    name: "anthropic",
    kind: "ANTHROPIC",
    baseUrl: "https://api.anthropic.com",
    apiKey: plant("model provider key"),
  });
  const webhook = await createWebhook(ctx, {
    name: "reports",
    url: `https://hooks.example.com/${plant("webhook URL path")}`,
  });
  planted.set("webhook signing secret", webhook.secret);
  const repository = await addRepository(ctx, {
    cloneUrl: `https://git.example.com/acme/at-rest-${randomUUID()}.git`,
  });
  planted.set("repository push secret", repository.pushSecret);
}

/** An apply attempt's installation token, sealed as @secondshift/outputs keeps it meanwhile. */
async function writeOutputToken(db: Db, tenant: Tenant): Promise<void> {
  const jobId = await seedJob(db, tenant);
  const runId = await createRun(db, tenant.workspaceId, jobId);
  const output = await db.runOutput.create({
    data: { workspaceId: tenant.workspaceId, runId, jobId, seq: 0, kind: "comment", payload: {} },
  });
  const sealed = await encryptField(keyring, plant("output write token"), {
    workspaceId: tenant.workspaceId,
    table: "RunOutput",
    rowId: output.id,
    field: "writeTokenCiphertext",
  });
  await db.runOutput.update({ where: { id: output.id }, data: { writeTokenCiphertext: sealed } });
}

describe("credentials at rest", () => {
  test("[C23] no credential of any kind is stored in the clear or base64-encoded, in any column", async ({
    db,
    testDatabase,
    tenant,
    oauth,
    owner,
  }) => {
    const oauthConnection = await writeConnections(owner, oauth);
    await refreshOAuth({ db, tenant, oauth }, oauthConnection);
    await writeOtherSecrets(owner);
    await writeOutputToken(db, tenant);

    // Every ciphertext column holds a value written above: a new secret column fails this test
    // until it is written here too.
    for (const { table, field } of encryptedColumns) {
      const { rows } = await testDatabase.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM "${table}" WHERE "${field}" IS NOT NULL`,
      );
      expect(Number(rows[0]?.n), `${table}.${field} written`).toBeGreaterThan(0);
    }
    expect(planted.size).toBeGreaterThanOrEqual(12);
    expect(await scanDatabase(testDatabase.pool, planted)).toEqual([]);
  });

  test("[C23] the scan finds a secret put in a plaintext JSON setting, also base64-encoded", async ({
    db,
    testDatabase,
    owner,
  }) => {
    const canary = new Map([["canary", `canary-${randomUUID()}`]]);
    const { id } = await createConnection(owner, {
      kind: "HTTP",
      label: "leaky",
      endpoint: "https://api.example.com",
      authType: "NONE",
      settings: { note: Buffer.from(canary.get("canary")!).toString("base64") },
    });
    const before = await scanDatabase(testDatabase.pool, canary);
    expect(before).toContain("Connection.settings: canary (base64)");
    expect(before.filter((hit) => !hit.startsWith("Connection.settings:"))).toEqual([]);
    await db.connection.update({
      where: { id },
      data: { oauthConfig: { clientSecret: canary.get("canary") } },
    });
    expect(await scanDatabase(testDatabase.pool, canary)).toContain(
      "Connection.oauthConfig: canary (plaintext)",
    );
  });
});

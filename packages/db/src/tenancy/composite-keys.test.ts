// Tenancy in the schema (P05, P06): a row may reference only rows of its own workspace. Every
// relation between tenant rows is tried across two workspaces and must fail in PostgreSQL,
// whatever the application code does; and the catalog check catches a relation added later
// without the workspace in its key.
import { randomUUID } from "node:crypto";
import type { Db } from "../client.ts";
import { seedRun, seedWorkspace, type SeededWorkspace } from "../testing/index.ts";
import { dbTest as test } from "../testing/fixtures.ts";
import { describe, expect } from "vitest";

interface Rows {
  connectionId: string;
  providerId: string;
  grantId: string;
  runId: string;
  webhookId: string;
  deliveryId: string;
}

async function tenantRows(db: Db, seed: SeededWorkspace): Promise<Rows> {
  const ws = seed.workspaceId;
  const connection = await db.connection.create({
    data: {
      workspaceId: ws,
      kind: "MCP",
      label: `c-${randomUUID()}`,
      endpoint: "https://mcp.example.com",
    },
  });
  const provider = await db.modelProvider.create({
    data: {
      workspaceId: ws,
      name: `p-${randomUUID()}`,
      kind: "OPENAI",
      baseUrl: "https://api.openai.com",
      apiKeyCiphertext: new Uint8Array([1]),
    },
  });
  const grant = await db.grant.create({
    data: { workspaceId: ws, jobId: seed.jobId, requestHash: "h", approvedById: seed.ownerId },
  });
  const run = await seedRun(db, seed);
  const webhook = await db.webhook.create({
    data: {
      workspaceId: ws,
      name: "w",
      urlCiphertext: new Uint8Array([1]),
      secretCiphertext: new Uint8Array([1]),
    },
  });
  const delivery = await db.webhookDelivery.create({
    data: { workspaceId: ws, webhookId: webhook.id, runId: run.id },
  });
  return {
    connectionId: connection.id,
    providerId: provider.id,
    grantId: grant.id,
    runId: run.id,
    webhookId: webhook.id,
    deliveryId: delivery.id,
  };
}

/** Each relation between tenant rows, written from workspace `a` to rows of workspace `b`. */
const crossWrites: Record<
  string,
  (db: Db, a: SeededWorkspace, b: SeededWorkspace & Rows) => Promise<unknown>
> = {
  "Repository.connection": (db, a, b) =>
    db.repository.update({ where: { id: a.repositoryId }, data: { connectionId: b.connectionId } }),
  "Job.repository": (db, a, b) =>
    db.job.create({
      data: {
        workspaceId: a.workspaceId,
        repositoryId: b.repositoryId,
        key: "x",
        name: "x",
        prompt: "x",
        tokenBudget: 1,
        timeoutSeconds: 1,
        requestedTools: [],
        requestHash: "h",
        configCommit: "c",
      },
    }),
  "Grant.job": (db, a, b) =>
    db.grant.create({
      data: {
        workspaceId: a.workspaceId,
        jobId: b.jobId,
        requestHash: "h",
        approvedById: a.ownerId,
      },
    }),
  "GrantTool.grant": async (db, a, b) => {
    const mine = await tenantRows(db, a);
    return db.grantTool.create({
      data: {
        workspaceId: a.workspaceId,
        grantId: b.grantId,
        connectionId: mine.connectionId,
        toolName: "t",
      },
    });
  },
  "GrantTool.connection": async (db, a, b) => {
    const mine = await tenantRows(db, a);
    return db.grantTool.create({
      data: {
        workspaceId: a.workspaceId,
        grantId: mine.grantId,
        connectionId: b.connectionId,
        toolName: "t",
      },
    });
  },
  "Run.job": (db, a, b) =>
    db.run.create({
      data: { workspaceId: a.workspaceId, jobId: b.jobId, trigger: "MANUAL", budgetTokens: 1 },
    }),
  "Run.modelProvider": (db, a, b) =>
    db.run.create({
      data: {
        workspaceId: a.workspaceId,
        jobId: a.jobId,
        trigger: "MANUAL",
        budgetTokens: 1,
        modelProviderId: b.providerId,
      },
    }),
  "RunToken.run": (db, a, b) =>
    db.runToken.create({
      data: {
        workspaceId: a.workspaceId,
        runId: b.runId,
        tokenHash: Buffer.from(randomUUID()),
        expiresAt: new Date(),
      },
    }),
  "RunEvent.run": (db, a, b) =>
    db.runEvent.create({
      data: { workspaceId: a.workspaceId, runId: b.runId, seq: 99, type: "x", payload: {} },
    }),
  "WebhookDelivery.webhook": async (db, a, b) => {
    const mine = await tenantRows(db, a);
    return db.webhookDelivery.create({
      data: { workspaceId: a.workspaceId, webhookId: b.webhookId, runId: mine.runId },
    });
  },
  "WebhookDelivery.run": async (db, a, b) => {
    const mine = await tenantRows(db, a);
    return db.webhookDelivery.create({
      data: { workspaceId: a.workspaceId, webhookId: mine.webhookId, runId: b.runId },
    });
  },
  "WebhookDeliveryAttempt.delivery": (db, a, b) =>
    db.webhookDeliveryAttempt.create({
      data: { workspaceId: a.workspaceId, deliveryId: b.deliveryId, durationMs: 1 },
    }),
};

describe("[P05] a reference across workspaces cannot be stored", () => {
  test.for(Object.keys(crossWrites))("[P05] %s", async (relation, { db }) => {
    const a = await seedWorkspace(db, { name: "a" });
    const bSeed = await seedWorkspace(db, { name: "b" });
    const b = { ...bSeed, ...(await tenantRows(db, bSeed)) };
    await expect(crossWrites[relation]!(db, a, b)).rejects.toThrow(/foreign key|Foreign key/i);
  });

  test("[P05] every foreign key between tenant tables includes the workspace", async ({ db }) => {
    const keys = await db.$queryRaw<Array<{ name: string; columns: string[]; target: string }>>`
      SELECT c.conname AS name, c.confrelid::regclass::text AS target,
             array(SELECT a.attname::text FROM unnest(c.conkey) k JOIN pg_attribute a
                   ON a.attrelid = c.conrelid AND a.attnum = k) AS columns
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = 'public'`;
    const global = new Set(['"Workspace"', '"User"']);
    const tenantKeys = keys.filter((k) => !global.has(k.target));
    expect(tenantKeys.length).toBeGreaterThanOrEqual(Object.keys(crossWrites).length);
    expect(tenantKeys.filter((k) => !k.columns.includes("workspaceId")).map((k) => k.name)).toEqual(
      [],
    );
  });

  test("deleting a referenced connection or provider clears only that reference", async ({
    db,
    seed,
  }) => {
    const rows = await tenantRows(db, seed);
    await db.repository.update({
      where: { id: seed.repositoryId },
      data: { connectionId: rows.connectionId },
    });
    const run = await db.run.create({
      data: {
        workspaceId: seed.workspaceId,
        jobId: seed.jobId,
        trigger: "MANUAL",
        budgetTokens: 1,
        modelProviderId: rows.providerId,
      },
    });
    await db.connection.delete({ where: { id: rows.connectionId } });
    await db.modelProvider.delete({ where: { id: rows.providerId } });
    expect(
      await db.repository.findUniqueOrThrow({ where: { id: seed.repositoryId } }),
    ).toMatchObject({
      connectionId: null,
      workspaceId: seed.workspaceId,
    });
    expect(await db.run.findUniqueOrThrow({ where: { id: run.id } })).toMatchObject({
      modelProviderId: null,
      workspaceId: seed.workspaceId,
    });
  });
});

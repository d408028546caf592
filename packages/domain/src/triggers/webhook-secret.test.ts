// A GitHub App connection's webhook secret (issue #25 item 1): made by the server, stored only
// encrypted and bound to its row, shown once, audited without it, and the owner's alone.
import { decryptField } from "@secondshift/crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { listAuditEvents } from "../audit/list.ts";
import { getConnection, listConnections } from "../connections/list.ts";
import {
  actorContext,
  seedAppConnection,
  seedConnection,
  seedTenant,
  testKeyring,
  tool,
} from "../testing/index.ts";
import { setConnectionWebhookSecret } from "./webhook-secret.ts";

const keyring = testKeyring();

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => ({
  a: await seedTenant(db, "acme"),
  b: await seedTenant(db, "other"),
}));

const binding = (workspaceId: string, rowId: string) => ({
  workspaceId,
  table: "Connection",
  rowId,
  field: "webhookSecretCiphertext",
});

describe("GitHub App webhook secret", () => {
  test("[P06] an owner sets, then rotates, the secret: stored only encrypted to its row, shown once with the path", async ({
    db,
    tenants: { a },
  }) => {
    const owner = actorContext(db, a, a.ownerId, { keyring });
    const connectionId = await seedAppConnection(db, keyring, a);
    expect((await getConnection(owner, { connectionId })).webhook).toEqual({
      path: `/webhooks/github-app/${connectionId}`,
      secretSet: false,
    });

    const first = await setConnectionWebhookSecret(owner, { connectionId });
    expect(first.webhookPath).toBe(`/webhooks/github-app/${connectionId}`);
    expect(first.webhookSecret).toMatch(/^ss_whk_[A-Za-z0-9_-]{43}$/);
    const stored = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    const sealed = stored.webhookSecretCiphertext!;
    expect(Buffer.from(sealed).includes(first.webhookSecret)).toBe(false);
    expect(await decryptField(keyring, sealed, binding(a.workspaceId, connectionId))).toBe(
      first.webhookSecret,
    );
    // Moved to another row, the ciphertext does not open.
    const other = await seedAppConnection(db, keyring, a);
    await expect(decryptField(keyring, sealed, binding(a.workspaceId, other))).rejects.toThrow();

    const second = await setConnectionWebhookSecret(owner, { connectionId });
    expect(second.webhookSecret).not.toBe(first.webhookSecret);
    const rotated = await db.connection.findUniqueOrThrow({ where: { id: connectionId } });
    expect(
      await decryptField(
        keyring,
        rotated.webhookSecretCiphertext!,
        binding(a.workspaceId, connectionId),
      ),
    ).toBe(second.webhookSecret);

    // Later reads say it is set and never carry it; the audit rows say set, then rotated.
    const viewer = actorContext(db, a, a.viewerId);
    const reads = JSON.stringify([
      await getConnection(viewer, { connectionId }),
      await listConnections(viewer, {}),
      await listAuditEvents(viewer, { limit: 100 }),
      await db.auditEvent.findMany({ where: { workspaceId: a.workspaceId } }),
    ]);
    for (const secret of [first.webhookSecret, second.webhookSecret])
      expect(reads).not.toContain(secret);
    expect((await getConnection(viewer, { connectionId })).webhook?.secretSet).toBe(true);
    const audit = await db.auditEvent.findMany({
      where: { workspaceId: a.workspaceId, action: "connection.webhook_secret_set" },
      orderBy: { id: "asc" },
    });
    expect(audit.map((r) => [r.targetId, r.actorId, r.outcome])).toEqual([
      [connectionId, a.ownerId, "set"],
      [connectionId, a.ownerId, "rotated"],
    ]);
  });

  test("[C02][P05] an admin or viewer is refused, another workspace's connection is not found, a non-App connection has none", async ({
    db,
    tenants: { a, b },
  }) => {
    const connectionId = await seedAppConnection(db, keyring, a);
    for (const userId of [a.adminId, a.viewerId]) {
      await expect(
        setConnectionWebhookSecret(actorContext(db, a, userId, { keyring }), { connectionId }),
      ).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
    const foreign = await seedAppConnection(db, keyring, b);
    const owner = actorContext(db, a, a.ownerId, { keyring });
    await expect(
      setConnectionWebhookSecret(owner, { connectionId: foreign }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    const mcp = await seedConnection(db, keyring, a, {
      kind: "MCP",
      label: "docs",
      tools: [tool("search")],
      allowed: [],
    });
    await expect(setConnectionWebhookSecret(owner, { connectionId: mcp })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      reason: "CONNECTION_NOT_GITHUB_APP",
    });
    expect((await getConnection(owner, { connectionId: mcp })).webhook).toBeNull();
    for (const id of [connectionId, foreign, mcp]) {
      const row = await db.connection.findUniqueOrThrow({ where: { id } });
      expect(row.webhookSecretCiphertext).toBeNull();
    }
    expect(
      await db.auditEvent.count({
        where: {
          action: "connection.webhook_secret_set",
          targetId: { in: [connectionId, foreign, mcp] },
        },
      }),
    ).toBe(0);
  });
});

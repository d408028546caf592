// Outgoing webhooks: the URL and the signing secret are encrypted bound to the row (P06); the
// secret is returned once at creation and the list shows neither (C27).
import { decryptField } from "@secondshift/crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { actorContext, seedTenant, testKeyring } from "../testing/index.ts";
import { createWebhook, deleteWebhook, listWebhooks } from "./manage.ts";

const keyring = testKeyring();

const test = dbTest
  .extend("tenants", { scope: "file" }, async ({ db }) => ({
    a: await seedTenant(db, "acme"),
  }))
  .extend(
    "owner",
    ({ db, tenants: { a } }) =>
      () =>
        actorContext(db, a, a.ownerId, { keyring }),
  );

describe("webhooks", () => {
  test("[C27][P06] URL and secret are stored encrypted; the secret is returned once, never listed", async ({
    db,
    tenants: { a },
    owner,
  }) => {
    const url = "https://hooks.example.test/services/T000/B000/planted-token";
    const created = await createWebhook(owner(), {
      name: "slack",
      url,
      statuses: ["FAILED", "FAILED"],
    });
    expect(created.secret).toMatch(/^ss_whk_/);
    const row = await db.webhook.findUniqueOrThrow({ where: { id: created.id } });
    const binding = { workspaceId: a.workspaceId, table: "Webhook", rowId: created.id };
    expect(
      await decryptField(keyring, row.urlCiphertext, { ...binding, field: "urlCiphertext" }),
    ).toBe(url);
    expect(
      await decryptField(keyring, row.secretCiphertext, { ...binding, field: "secretCiphertext" }),
    ).toBe(created.secret);
    expect(row.statuses).toEqual(["FAILED"]);
    const listed = JSON.stringify(await listWebhooks(owner(), {}));
    expect(listed).toContain("slack");
    for (const secret of [url, "planted-token", created.secret, "Ciphertext"])
      expect(listed).not.toContain(secret);
  });

  test("deleting removes it; a second delete finds nothing", async ({ owner }) => {
    const { id } = await createWebhook(owner(), { name: "x", url: "https://h.example.test/" });
    await deleteWebhook(owner(), { webhookId: id });
    await expect(deleteWebhook(owner(), { webhookId: id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

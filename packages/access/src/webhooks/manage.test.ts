// Outgoing webhooks: the URL and the signing secret are encrypted bound to the row (P06); the
// secret is returned once at creation and the list shows neither (C27).
import { decryptField } from "@secondshift/crypto";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorContext, seedTenant, testKeyring, type Tenant } from "../testing/index.ts";
import { createWebhook, deleteWebhook, listWebhooks } from "./manage.ts";

let t: TestDatabase;
let a: Tenant;
const keyring = testKeyring();

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
});
afterAll(async () => t?.drop());

const owner = () => actorContext(t.db, a, a.ownerId, { keyring });

describe("webhooks", () => {
  it("[C27][P06] URL and secret are stored encrypted; the secret is returned once, never listed", async () => {
    const url = "https://hooks.example.test/services/T000/B000/planted-token";
    const created = await createWebhook(owner(), {
      name: "slack",
      url,
      statuses: ["FAILED", "FAILED"],
    });
    expect(created.secret).toMatch(/^ss_whk_/);
    const row = await t.db.webhook.findUniqueOrThrow({ where: { id: created.id } });
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

  it("deleting removes it; a second delete finds nothing", async () => {
    const { id } = await createWebhook(owner(), { name: "x", url: "https://h.example.test/" });
    await deleteWebhook(owner(), { webhookId: id });
    await expect(deleteWebhook(owner(), { webhookId: id })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });
});

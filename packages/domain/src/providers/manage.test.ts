// Model provider keys are write-only: stored encrypted bound to their row (P06), never read
// back by any use case (C24), replaced but not shown.
import { decryptField } from "@secondshift/crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import { isAppError } from "@secondshift/errors";
import { describe, expect, vi } from "vitest";
import { actorContext, seedTenant, testKeyring } from "../testing/index.ts";
import { listModelProviders } from "./list.ts";
import { createModelProvider, replaceModelProviderKey, updateModelProvider } from "./manage.ts";

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
  )
  /** A provider's row and its key, decrypted as bound to that row. */
  .extend("stored", ({ db, tenants: { a } }) => async (id: string) => {
    const row = await db.modelProvider.findUniqueOrThrow({ where: { id } });
    const binding = { workspaceId: a.workspaceId, table: "ModelProvider", rowId: id };
    return {
      row,
      key: await decryptField(keyring, row.apiKeyCiphertext, {
        ...binding,
        field: "apiKeyCiphertext",
      }),
    };
  });

describe("model providers", () => {
  test("[C24][P06] the key is stored encrypted to its row and no use case returns it", async ({
    owner,
    stored,
  }) => {
    const apiKey = "sk-ant-planted-key-0123456789";
    const { id } = await createModelProvider(owner(), {
      name: "anthropic",
      kind: "ANTHROPIC",
      baseUrl: "https://api.anthropic.com",
      apiKey,
    });
    const { row, key } = await stored(id);
    expect(key).toBe(apiKey);
    expect(Buffer.from(row.apiKeyCiphertext).toString("latin1")).not.toContain(apiKey);
    const listed = JSON.stringify(await listModelProviders(owner(), {}));
    expect(listed).toContain("anthropic");
    expect(listed).not.toContain(apiKey);
    expect(listed).not.toContain("Ciphertext");
  });

  test("[P06] replacing the key re-encrypts it for the same row; the old key is gone", async ({
    owner,
    stored,
  }) => {
    const { id } = await createModelProvider(owner(), {
      name: "openai",
      kind: "OPENAI",
      baseUrl: "https://api.openai.com/v1",
      apiKey: "old-key",
    });
    const keyTime = async () =>
      (await listModelProviders(owner(), {})).find((p) => p.id === id)!.keyUpdatedAt.getTime();
    const before = await keyTime();
    // The key's time comes from the clock: let it pass the millisecond of `before`.
    await vi.waitUntil(() => Date.now() > before, { timeout: 1_000, interval: 1 });
    await replaceModelProviderKey(owner(), { providerId: id, apiKey: "new-key" });
    expect((await stored(id)).key).toBe("new-key");
    // The list says when the key changed (never the key).
    expect(await keyTime()).toBeGreaterThan(before);
  });

  test("one default per workspace; a base URL with credentials is refused", async ({
    db,
    tenants: { a },
    owner,
  }) => {
    const make = (name: string) =>
      createModelProvider(owner(), {
        name,
        kind: "OPENAI",
        baseUrl: "https://llm.internal.test",
        apiKey: "k",
        isDefault: true,
      });
    const first = await make("d1");
    const second = await make("d2");
    await updateModelProvider(owner(), { providerId: first.id, isDefault: true });
    const defaults = await db.modelProvider.findMany({
      where: { workspaceId: a.workspaceId, isDefault: true },
    });
    expect(defaults.map((p) => p.id)).toEqual([first.id]);
    expect(second.id).not.toBe(first.id);
    const refused = await createModelProvider(owner(), {
      name: "bad",
      kind: "OPENAI",
      baseUrl: "https://user:pass@llm.internal.test",
      apiKey: "k",
    }).catch((e: unknown) => (isAppError(e) ? e.reason : e));
    expect(refused).toBe("URL_HAS_CREDENTIALS");
  });
});

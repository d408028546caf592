// Model provider keys are write-only: stored encrypted bound to their row (P06), never read
// back by any use case (C24), replaced but not shown.
import { decryptField } from "@secondshift/crypto";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { isAppError } from "@secondshift/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { actorContext, seedTenant, testKeyring, type Tenant } from "../testing/index.ts";
import { listModelProviders } from "./list.ts";
import { createModelProvider, replaceModelProviderKey, updateModelProvider } from "./manage.ts";

let t: TestDatabase;
let a: Tenant;
const keyring = testKeyring();

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
});
afterAll(async () => t?.drop());

const owner = () => actorContext(t.db, a, a.ownerId, { keyring });
const stored = async (id: string) => {
  const row = await t.db.modelProvider.findUniqueOrThrow({ where: { id } });
  const binding = { workspaceId: a.workspaceId, table: "ModelProvider", rowId: id };
  return {
    row,
    key: await decryptField(keyring, row.apiKeyCiphertext, {
      ...binding,
      field: "apiKeyCiphertext",
    }),
  };
};

describe("model providers", () => {
  it("[C24][P06] the key is stored encrypted to its row and no use case returns it", async () => {
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

  it("[P06] replacing the key re-encrypts it for the same row; the old key is gone", async () => {
    const { id } = await createModelProvider(owner(), {
      name: "openai",
      kind: "OPENAI",
      baseUrl: "https://api.openai.com/v1",
      apiKey: "old-key",
    });
    const keyTime = async () =>
      (await listModelProviders(owner(), {})).find((p) => p.id === id)!.keyUpdatedAt.getTime();
    const before = await keyTime();
    await new Promise((r) => setTimeout(r, 5));
    await replaceModelProviderKey(owner(), { providerId: id, apiKey: "new-key" });
    expect((await stored(id)).key).toBe("new-key");
    // The list says when the key changed (never the key).
    expect(await keyTime()).toBeGreaterThan(before);
  });

  it("one default per workspace; a base URL with credentials is refused", async () => {
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
    const defaults = await t.db.modelProvider.findMany({
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

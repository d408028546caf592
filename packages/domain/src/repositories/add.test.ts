// Adding a repository: only with a connection of this workspace (P05); the push secret is
// encrypted bound to the row (P06) and returned once; the first sync is queued.
import { decryptField } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import {
  actorContext,
  recordingServices,
  seedConnection,
  seedTenant,
  testKeyring,
  type Tenant,
} from "../testing/index.ts";
import { addRepository } from "./add.ts";
import { listRepositories } from "./list.ts";

const keyring = testKeyring();

const test = dbTest.extend("tenants", { scope: "file" }, async ({ db }) => {
  const a = await seedTenant(db, "acme");
  const b = await seedTenant(db, "other");
  return { a, b };
});

const github = (db: Db, tenant: Tenant) =>
  seedConnection(db, keyring, tenant, {
    kind: "GITHUB",
    label: "gh",
    tools: [],
    allowed: [],
    credential: "ghp_planted",
  });

describe("addRepository", () => {
  test("[P06] stores the push secret encrypted, returns it once, and queues the first sync", async ({
    db,
    tenants: { a },
  }) => {
    const services = recordingServices();
    const ctx = actorContext(db, a, a.ownerId, { keyring, services });
    const added = await addRepository(ctx, {
      cloneUrl: "https://github.com/acme/api.git",
      connectionId: await github(db, a),
    });
    expect(added.fullName).toBe("acme/api");
    expect(added.pushPath).toBe(`/webhooks/repositories/${added.id}/push`);
    const row = await db.repository.findUniqueOrThrow({ where: { id: added.id } });
    const secret = await decryptField(keyring, row.webhookSecretCiphertext!, {
      workspaceId: a.workspaceId,
      table: "Repository",
      rowId: added.id,
      field: "webhookSecretCiphertext",
    });
    expect(secret).toBe(added.pushSecret);
    expect(services.calls).toEqual([
      { name: "requestSync", arg: { workspaceId: a.workspaceId, repositoryId: added.id } },
    ]);
    expect(JSON.stringify(await listRepositories(ctx, {}))).not.toContain(added.pushSecret);
    // Until the sync runs, the screens know one is pending (and poll).
    const listed = (await listRepositories(ctx, {})).find((r) => r.id === added.id);
    expect(listed?.syncPending).toBe(true);
    const later = { ...ctx, now: () => new Date(Date.now() + 16 * 60_000) };
    const lost = (await listRepositories(later, {})).find((r) => r.id === added.id);
    expect(lost?.syncPending).toBe(false);
  });

  test("[P05] a connection of another workspace is not found and nothing is added", async ({
    db,
    tenants: { a, b },
  }) => {
    const ctx = actorContext(db, a, a.ownerId, { keyring, services: recordingServices() });
    const foreign = await github(db, b);
    await expect(
      addRepository(ctx, { cloneUrl: "https://github.com/acme/x.git", connectionId: foreign }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await db.repository.count({ where: { fullName: "acme/x" } })).toBe(0);
  });

  test("only a GitHub connection fetches a repository; an MCP one is refused", async ({
    db,
    tenants: { a },
  }) => {
    const ctx = actorContext(db, a, a.ownerId, { keyring, services: recordingServices() });
    const mcp = await seedConnection(db, keyring, a, {
      kind: "MCP",
      label: "docs",
      tools: [],
      allowed: [],
    });
    await expect(
      addRepository(ctx, { cloneUrl: "https://github.com/acme/mcp.git", connectionId: mcp }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", reason: "CONNECTION_CANNOT_FETCH" });
    expect(await db.repository.count({ where: { fullName: "acme/mcp" } })).toBe(0);
  });

  test("a clone URL with credentials or without a repository path is refused", async ({
    db,
    tenants: { a },
  }) => {
    const ctx = actorContext(db, a, a.ownerId, { keyring, services: recordingServices() });
    for (const cloneUrl of ["https://x:token@github.com/acme/y.git", "https://github.com/"])
      await expect(addRepository(ctx, { cloneUrl })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

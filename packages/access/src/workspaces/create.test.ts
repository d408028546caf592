import { randomUUID } from "node:crypto";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedTenant, type Tenant } from "../testing/index.ts";
import { createWorkspace } from "./create.ts";

let t: TestDatabase;
let a: Tenant;
let loner: string;

beforeAll(async () => {
  t = await createTestDatabase();
  a = await seedTenant(t.db, "acme");
  loner = (
    await t.db.user.create({
      data: { email: `loner-${randomUUID()}@x.test`, name: "loner", passwordHash: "x" },
    })
  ).id;
});
afterAll(async () => t?.drop());

const as = (userId: string) => ({ db: t.db, actor: { userId } });

describe("createWorkspace", () => {
  it("under 'owners', an owner creates one and owns it, audited in the new workspace", async () => {
    const created = await createWorkspace(as(a.ownerId), { name: " Platform ", policy: "owners" });
    expect(created.name).toBe("Platform");
    expect(created.slug).toMatch(/^platform-[0-9a-f]{6}$/);
    const membership = await t.db.membership.findUniqueOrThrow({
      where: { workspaceId_userId: { workspaceId: created.id, userId: a.ownerId } },
    });
    expect(membership.role).toBe("OWNER");
    const audit = await t.db.auditEvent.findMany({ where: { workspaceId: created.id } });
    expect(audit.map((e) => [e.action, e.actorId])).toEqual([["workspace.created", a.ownerId]]);
  });

  it("under 'owners', a viewer or admin who owns nothing is refused and nothing is created", async () => {
    const before = await t.db.workspace.count();
    for (const userId of [a.viewerId, a.adminId, loner]) {
      await expect(
        createWorkspace(as(userId), { name: "Mine", policy: "owners" }),
      ).rejects.toMatchObject({ code: "FORBIDDEN", reason: "WORKSPACE_CREATION_OWNERS_ONLY" });
    }
    expect(await t.db.workspace.count()).toBe(before);
  });

  it("under 'anyone', any signed-in user creates one; under 'operator-only', no one does", async () => {
    const mine = await createWorkspace(as(loner), { name: "Loner's", policy: "anyone" });
    expect(mine.slug).toMatch(/^loner-s-/);
    const before = await t.db.workspace.count();
    await expect(
      createWorkspace(as(a.ownerId), { name: "More", policy: "operator-only" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", reason: "WORKSPACE_CREATION_OPERATOR_ONLY" });
    expect(await t.db.workspace.count()).toBe(before);
  });
});

import { randomUUID } from "node:crypto";
import { dbTest } from "@secondshift/db/testing/vitest";
import { describe, expect } from "vitest";
import { seedTenant } from "../testing/index.ts";
import { createWorkspace } from "./create.ts";

const test = dbTest
  /** acme's members, and `loner`, a user who belongs to no workspace. */
  .extend("users", { scope: "file" }, async ({ db }) => {
    const a = await seedTenant(db, "acme");
    const loner = (
      await db.user.create({
        data: { email: `loner-${randomUUID()}@x.test`, name: "loner", passwordHash: "x" },
      })
    ).id;
    return { a, loner };
  })
  .extend("as", ({ db }) => (userId: string) => ({ db, actor: { userId } }));

describe("createWorkspace", () => {
  test("under 'owners', an owner creates one and owns it, audited in the new workspace", async ({
    db,
    users: { a },
    as,
  }) => {
    const created = await createWorkspace(as(a.ownerId), { name: " Platform ", policy: "owners" });
    expect(created.name).toBe("Platform");
    expect(created.slug).toMatch(/^platform-[0-9a-f]{6}$/);
    const membership = await db.membership.findUniqueOrThrow({
      where: { workspaceId_userId: { workspaceId: created.id, userId: a.ownerId } },
    });
    expect(membership.role).toBe("OWNER");
    const audit = await db.auditEvent.findMany({ where: { workspaceId: created.id } });
    expect(audit.map((e) => [e.action, e.actorId])).toEqual([["workspace.created", a.ownerId]]);
  });

  test("under 'owners', a viewer or admin who owns nothing is refused and nothing is created", async ({
    db,
    users: { a, loner },
    as,
  }) => {
    const before = await db.workspace.count();
    for (const userId of [a.viewerId, a.adminId, loner]) {
      await expect(
        createWorkspace(as(userId), { name: "Mine", policy: "owners" }),
      ).rejects.toMatchObject({ code: "FORBIDDEN", reason: "WORKSPACE_CREATION_OWNERS_ONLY" });
    }
    expect(await db.workspace.count()).toBe(before);
  });

  test("under 'anyone', any signed-in user creates one; under 'operator-only', no one does", async ({
    db,
    users: { a, loner },
    as,
  }) => {
    const mine = await createWorkspace(as(loner), { name: "Loner's", policy: "anyone" });
    expect(mine.slug).toMatch(/^loner-s-/);
    const before = await db.workspace.count();
    await expect(
      createWorkspace(as(a.ownerId), { name: "More", policy: "operator-only" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN", reason: "WORKSPACE_CREATION_OPERATOR_ONLY" });
    expect(await db.workspace.count()).toBe(before);
  });
});

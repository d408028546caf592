// Members and invitations: only an owner manages them (C02), another workspace's people are
// not found (P05), and a workspace always keeps an owner — also when two owners demote each
// other at the same moment.
import { randomUUID } from "node:crypto";
import type { Db } from "@secondshift/db";
import { dbTest } from "@secondshift/db/testing/vitest";
import { isAppError } from "@secondshift/errors";
import { describe, expect } from "vitest";
import { actorContext, seedTenant } from "../testing/index.ts";
import { createInvitation, revokeInvitation } from "./invitations.ts";
import { changeMemberRole, removeMember } from "./manage.ts";

const test = dbTest
  /** acme, and `outsider`: the owner of another workspace. */
  .extend("tenants", { scope: "file" }, async ({ db }) => {
    const a = await seedTenant(db, "acme");
    const outsider = (await seedTenant(db, "other")).ownerId;
    return { a, outsider };
  })
  /** The context `userId` acts in on acme's workspace. */
  .extend(
    "as",
    ({ db, tenants: { a } }) =>
      (userId: string) =>
        actorContext(db, a, userId),
  );
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => "ok",
    (e: unknown) => (isAppError(e) ? `${e.code}:${e.reason}` : String(e)),
  );

async function workspaceWithOwners(db: Db, count: number) {
  const tenant = await seedTenant(db, "owners");
  const owners = [tenant.ownerId];
  for (let i = 1; i < count; i++) {
    const user = await db.user.create({
      data: { email: `owner-${randomUUID()}@x.test`, name: "o", passwordHash: "x" },
    });
    await db.membership.create({
      data: { workspaceId: tenant.workspaceId, userId: user.id, role: "OWNER" },
    });
    owners.push(user.id);
  }
  return { tenant, owners };
}

const ownerCount = (db: Db, workspaceId: string) =>
  db.membership.count({ where: { workspaceId, role: "OWNER" } });

describe("invitations", () => {
  test("stores only the token's hash, returns the token once, and records the invitation", async ({
    db,
    tenants: { a },
    as,
  }) => {
    const email = `New.${randomUUID()}@Example.test`;
    const created = await createInvitation(as(a.ownerId), { email, role: "VIEWER" });
    expect(created.token).toMatch(/^ss_inv_/);
    const row = await db.invitation.findUniqueOrThrow({ where: { id: created.invitationId } });
    expect(row.email).toBe(email.toLowerCase());
    expect(Buffer.from(row.tokenHash).toString("latin1")).not.toContain(created.token);
    const audit = await db.auditEvent.findFirst({
      where: { targetId: created.invitationId, action: "invitation.created" },
    });
    expect(audit?.actorId).toBe(a.ownerId);
  });

  test("inviting a member again is a conflict", async ({ db, tenants: { a }, as }) => {
    const viewer = await db.user.findUniqueOrThrow({ where: { id: a.viewerId } });
    expect(
      await outcome(createInvitation(as(a.ownerId), { email: viewer.email, role: "ADMIN" })),
    ).toBe("CONFLICT:ALREADY_MEMBER");
  });

  test("[C02][P05] an admin cannot invite or withdraw, an outsider finds no workspace; nothing changes", async ({
    db,
    tenants: { a, outsider },
    as,
  }) => {
    const email = `x-${randomUUID()}@example.test`;
    const pending = await createInvitation(as(a.ownerId), { email: "p@x.test", role: "VIEWER" });
    expect(await outcome(createInvitation(as(a.adminId), { email, role: "OWNER" }))).toMatch(
      /^FORBIDDEN/,
    );
    expect(
      await outcome(revokeInvitation(as(a.adminId), { invitationId: pending.invitationId })),
    ).toMatch(/^FORBIDDEN/);
    expect(await outcome(createInvitation(as(outsider), { email, role: "ADMIN" }))).toMatch(
      /^NOT_FOUND/,
    );
    expect(
      await outcome(revokeInvitation(as(outsider), { invitationId: pending.invitationId })),
    ).toMatch(/^NOT_FOUND/);
    expect(await db.invitation.count({ where: { email } })).toBe(0);
    const row = await db.invitation.findUniqueOrThrow({ where: { id: pending.invitationId } });
    expect(row.revokedAt).toBeNull();
  });

  test("a withdrawn invitation cannot be withdrawn twice", async ({ tenants: { a }, as }) => {
    const created = await createInvitation(as(a.ownerId), { email: "w@x.test", role: "VIEWER" });
    await revokeInvitation(as(a.ownerId), { invitationId: created.invitationId });
    expect(
      await outcome(revokeInvitation(as(a.ownerId), { invitationId: created.invitationId })),
    ).toBe("NOT_FOUND:INVITATION_NOT_FOUND");
  });
});

describe("members", () => {
  test("the owner changes a role and removes a member, each audited", async ({
    db,
    tenants: { a },
    as,
  }) => {
    await changeMemberRole(as(a.ownerId), { userId: a.viewerId, role: "ADMIN" });
    const m = await db.membership.findFirstOrThrow({
      where: { workspaceId: a.workspaceId, userId: a.viewerId },
    });
    expect(m.role).toBe("ADMIN");
    await removeMember(as(a.ownerId), { userId: a.viewerId });
    expect(await db.membership.count({ where: { id: m.id } })).toBe(0);
    const actions = await db.auditEvent.findMany({ where: { targetId: m.id } });
    expect(actions.map((e) => e.action).sort()).toEqual(["member.removed", "member.role_changed"]);
  });

  test("the last owner can be neither demoted nor removed, not even by themselves", async ({
    db,
  }) => {
    const { tenant } = await workspaceWithOwners(db, 1);
    const ctx = actorContext(db, tenant, tenant.ownerId);
    expect(await outcome(changeMemberRole(ctx, { userId: tenant.ownerId, role: "ADMIN" }))).toBe(
      "PRECONDITION_FAILED:LAST_OWNER",
    );
    expect(await outcome(removeMember(ctx, { userId: tenant.ownerId }))).toBe(
      "PRECONDITION_FAILED:LAST_OWNER",
    );
    expect(await ownerCount(db, tenant.workspaceId)).toBe(1);
  });

  test("two owners demoting each other at once: one succeeds, an owner remains", async ({ db }) => {
    const { tenant, owners } = await workspaceWithOwners(db, 2);
    const [first, second] = owners as [string, string];
    const results = await Promise.all([
      outcome(
        changeMemberRole(actorContext(db, tenant, first), { userId: second, role: "VIEWER" }),
      ),
      outcome(removeMember(actorContext(db, tenant, second), { userId: first })),
    ]);
    expect(results.filter((r) => r === "ok")).toHaveLength(1);
    expect(await ownerCount(db, tenant.workspaceId)).toBe(1);
  });

  test("[P05] a person of another workspace is not found", async ({
    tenants: { a, outsider },
    as,
  }) => {
    expect(
      await outcome(changeMemberRole(as(a.ownerId), { userId: outsider, role: "VIEWER" })),
    ).toBe("NOT_FOUND:MEMBER_NOT_FOUND");
    expect(await outcome(removeMember(as(a.ownerId), { userId: outsider }))).toBe(
      "NOT_FOUND:MEMBER_NOT_FOUND",
    );
  });
});

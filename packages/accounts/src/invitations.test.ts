import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import type { AppError } from "@secondshift/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptInvitation } from "./invitations.ts";
import { resolveSession } from "./sessions.ts";
import { createUser, inviteForTest, testAccounts, type TestAccounts } from "./testing/index.ts";

let t: TestDatabase;
let a: TestAccounts;
let workspaceId: string;
let ownerId: string;
const password = "correct horse battery staple";
const newcomer = { name: "New Person", password: "another long passphrase" };

beforeAll(async () => {
  t = await createTestDatabase();
  a = testAccounts(t.db);
  workspaceId = (await t.db.workspace.create({ data: { slug: "inv-ws", name: "W" } })).id;
  ownerId = (await createUser(t.db, password, { workspaceId, role: "OWNER" })).id;
});
afterAll(async () => {
  await a.close();
  await t.drop();
});

// Invitations are made and withdrawn by the owner's use cases in @secondshift/access (tested
// there and in the API's matrix); here they are only accepted.
const invite = (email: string, role: "ADMIN" | "VIEWER" = "ADMIN", ttlMs?: number) =>
  inviteForTest(t.db, {
    workspaceId,
    invitedById: ownerId,
    email,
    role,
    ttlMs,
    now: a.clock.now(),
  });
const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "accepted",
    (e: unknown) => (e as AppError).reason,
  );

describe("invitations", () => {
  it("a new account joins with the chosen role, signed in", async () => {
    const created = await invite("New.Person@Example.test", "VIEWER");
    const accepted = await acceptInvitation(a.deps, { token: created.token, invitee: newcomer });
    expect(accepted).toMatchObject({ workspaceId, role: "VIEWER" });
    expect(await resolveSession(a.deps, accepted.session!.token)).toMatchObject({
      userId: accepted.userId,
    });
    const user = await t.db.user.findUniqueOrThrow({ where: { id: accepted.userId } });
    expect(user.email).toBe("new.person@example.test");
  });

  it("an invitation works once: the second accept is refused", async () => {
    const created = await invite("twice@example.test");
    const first = acceptInvitation(a.deps, { token: created.token, invitee: newcomer });
    expect(await reasonOf(first)).toBe("accepted");
    const second = acceptInvitation(a.deps, {
      token: created.token,
      invitee: { name: "Attacker", password: "attacker passphrase" },
    });
    expect(await reasonOf(second)).toBe("INVITATION_USED");
    expect(await t.db.membership.count({ where: { workspaceId } })).toBe(3);
  });

  it("two accepts at once: exactly one membership", async () => {
    const invitee = await createUser(t.db, password);
    const created = await invite(invitee.email);
    const reasons = await Promise.all(
      [1, 2, 3].map(() =>
        reasonOf(
          acceptInvitation(a.deps, { token: created.token, invitee: { userId: invitee.id } }),
        ),
      ),
    );
    expect(reasons.filter((r) => r === "accepted")).toHaveLength(1);
    expect(await t.db.membership.count({ where: { userId: invitee.id } })).toBe(1);
  });

  it("an expired invitation is refused and grants nothing", async () => {
    const invitee = await createUser(t.db, password);
    const created = await invite(invitee.email, "ADMIN", 60_000);
    a.clock.advance(61_000);
    const result = acceptInvitation(a.deps, {
      token: created.token,
      invitee: { userId: invitee.id },
    });
    expect(await reasonOf(result)).toBe("INVITATION_EXPIRED");
    expect(await t.db.membership.count({ where: { userId: invitee.id } })).toBe(0);
  });

  it("a revoked invitation is refused; an unknown token is not found", async () => {
    const invitee = await createUser(t.db, password);
    const created = await invite(invitee.email);
    await t.db.invitation.update({
      where: { id: created.invitationId },
      data: { revokedAt: new Date() },
    });
    const accept = (token: string) =>
      reasonOf(acceptInvitation(a.deps, { token, invitee: { userId: invitee.id } }));
    expect(await accept(created.token)).toBe("INVITATION_REVOKED");
    expect(await accept("ss_inv_" + "B".repeat(43))).toBe("INVITATION_NOT_FOUND");
    expect(await accept("garbage")).toBe("INVITATION_NOT_FOUND");
    expect(await t.db.membership.count({ where: { userId: invitee.id } })).toBe(0);
  });

  it("a signed-in user cannot use an invitation sent to another email", async () => {
    const invitee = await createUser(t.db, password);
    const thief = await createUser(t.db, password);
    const created = await invite(invitee.email);
    const stolen = acceptInvitation(a.deps, {
      token: created.token,
      invitee: { userId: thief.id },
    });
    expect(await reasonOf(stolen)).toBe("INVITATION_EMAIL_MISMATCH");
    // The failed attempt did not use the invitation up.
    const real = acceptInvitation(a.deps, {
      token: created.token,
      invitee: { userId: invitee.id },
    });
    expect(await reasonOf(real)).toBe("accepted");
  });
});

import { dbTest } from "@secondshift/db/testing/vitest";
import type { AppError } from "@secondshift/errors";
import { hashPassword, mintToken } from "@secondshift/crypto";
import { describe, expect, vi } from "vitest";
import { acceptInvitation } from "./invitations.ts";
import { createPasswordWork } from "./password-work.ts";
import { resolveSession } from "./sessions.ts";
import { createUser, inviteForTest, testAccounts } from "./testing/index.ts";

const password = "correct horse battery staple";
const newcomer = { name: "New Person", password: "another long passphrase" };

const test = dbTest
  .extend("accounts", { scope: "file" }, ({ db }, { onCleanup }) => {
    const accounts = testAccounts(db);
    onCleanup(() => accounts.close());
    return accounts;
  })
  /** The workspace the invitations are to, and its owner. */
  .extend("workspace", { scope: "file" }, async ({ db }) => {
    const workspaceId = (await db.workspace.create({ data: { slug: "inv-ws", name: "W" } })).id;
    const ownerId = (await createUser(db, password, { workspaceId, role: "OWNER" })).id;
    return { workspaceId, ownerId };
  })
  // Invitations are made and withdrawn by the owner's use cases in @secondshift/domain (tested
  // there and in the API's matrix); here they are only accepted.
  .extend(
    "invite",
    ({ db, accounts, workspace: { workspaceId, ownerId } }) =>
      (email: string, role: "ADMIN" | "VIEWER" = "ADMIN", ttlMs?: number) =>
        inviteForTest(db, {
          workspaceId,
          invitedById: ownerId,
          email,
          role,
          ttlMs,
          now: accounts.clock.now(),
        }),
  );

const reasonOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "accepted",
    (e: unknown) => (e as AppError).reason,
  );

describe("invitations", () => {
  test("a new account joins with the chosen role, signed in", async ({
    db,
    accounts,
    workspace: { workspaceId },
    invite,
  }) => {
    const created = await invite("New.Person@Example.test", "VIEWER");
    const accepted = await acceptInvitation(accounts.deps, {
      token: created.token,
      invitee: newcomer,
    });
    expect(accepted).toMatchObject({ workspaceId, role: "VIEWER" });
    expect(await resolveSession(accounts.deps, accepted.session!.token)).toMatchObject({
      userId: accepted.userId,
    });
    const user = await db.user.findUniqueOrThrow({ where: { id: accepted.userId } });
    expect(user.email).toBe("new.person@example.test");
  });

  test("an invitation works once: the second accept is refused", async ({
    db,
    accounts,
    workspace: { workspaceId },
    invite,
  }) => {
    const created = await invite("twice@example.test");
    const first = acceptInvitation(accounts.deps, { token: created.token, invitee: newcomer });
    expect(await reasonOf(first)).toBe("accepted");
    const second = acceptInvitation(accounts.deps, {
      token: created.token,
      invitee: { name: "Attacker", password: "attacker passphrase" },
    });
    expect(await reasonOf(second)).toBe("INVITATION_USED");
    expect(await db.membership.count({ where: { workspaceId } })).toBe(3);
  });

  test("two accepts at once: exactly one membership", async ({ db, accounts, invite }) => {
    const invitee = await createUser(db, password);
    const created = await invite(invitee.email);
    const reasons = await Promise.all(
      [1, 2, 3].map(() =>
        reasonOf(
          acceptInvitation(accounts.deps, {
            token: created.token,
            invitee: { userId: invitee.id },
          }),
        ),
      ),
    );
    expect(reasons.filter((r) => r === "accepted")).toHaveLength(1);
    expect(await db.membership.count({ where: { userId: invitee.id } })).toBe(1);
  });

  test("an expired invitation is refused and grants nothing", async ({ db, accounts, invite }) => {
    const invitee = await createUser(db, password);
    const created = await invite(invitee.email, "ADMIN", 60_000);
    accounts.clock.advance(61_000);
    const result = acceptInvitation(accounts.deps, {
      token: created.token,
      invitee: { userId: invitee.id },
    });
    expect(await reasonOf(result)).toBe("INVITATION_EXPIRED");
    expect(await db.membership.count({ where: { userId: invitee.id } })).toBe(0);
  });

  test("a revoked invitation is refused; an unknown token is not found", async ({
    db,
    accounts,
    invite,
  }) => {
    const invitee = await createUser(db, password);
    const created = await invite(invitee.email);
    await db.invitation.update({
      where: { id: created.invitationId },
      data: { revokedAt: new Date() },
    });
    const accept = (token: string) =>
      reasonOf(acceptInvitation(accounts.deps, { token, invitee: { userId: invitee.id } }));
    expect(await accept(created.token)).toBe("INVITATION_REVOKED");
    expect(await accept("ss_inv_" + "B".repeat(43))).toBe("INVITATION_NOT_FOUND");
    expect(await accept("garbage")).toBe("INVITATION_NOT_FOUND");
    expect(await db.membership.count({ where: { userId: invitee.id } })).toBe(0);
  });

  test("a signed-in user cannot use an invitation sent to another email", async ({
    db,
    accounts,
    invite,
  }) => {
    const invitee = await createUser(db, password);
    const thief = await createUser(db, password);
    const created = await invite(invitee.email);
    const stolen = acceptInvitation(accounts.deps, {
      token: created.token,
      invitee: { userId: thief.id },
    });
    expect(await reasonOf(stolen)).toBe("INVITATION_EMAIL_MISMATCH");
    // The failed attempt did not use the invitation up.
    const real = acceptInvitation(accounts.deps, {
      token: created.token,
      invitee: { userId: invitee.id },
    });
    expect(await reasonOf(real)).toBe("accepted");
  });
});

describe("invitations cost no hash unless they can be used", () => {
  test("a well-formed unknown, a used, a withdrawn and an expired link are refused before any argon2id hash", async ({
    db,
    accounts,
    invite,
  }) => {
    const hash = vi.fn((pw: string) => hashPassword(pw));
    const deps = { ...accounts.deps, passwords: createPasswordWork({ hash }) };
    const used = await invite("used@example.test");
    await acceptInvitation(deps, { token: used.token, invitee: newcomer });
    expect(hash).toHaveBeenCalledTimes(1);
    const withdrawn = await invite("withdrawn@example.test");
    await db.invitation.update({
      where: { id: withdrawn.invitationId },
      data: { revokedAt: new Date() },
    });
    const expired = await invite("expired@example.test", "VIEWER", 60_000);
    accounts.clock.advance(120_000);

    const refusals = await Promise.all(
      [mintToken("invitation").token, used.token, withdrawn.token, expired.token].map((token) =>
        reasonOf(acceptInvitation(deps, { token, invitee: newcomer })),
      ),
    );
    expect(refusals).toEqual([
      "INVITATION_NOT_FOUND",
      "INVITATION_USED",
      "INVITATION_REVOKED",
      "INVITATION_EXPIRED",
    ]);
    expect(hash).toHaveBeenCalledTimes(1);
  });

  test("joining records member.joined in the workspace's audit log, naming the membership", async ({
    db,
    accounts,
    workspace: { workspaceId },
    invite,
  }) => {
    const created = await invite("joiner@example.test", "VIEWER");
    const accepted = await acceptInvitation(accounts.deps, {
      token: created.token,
      invitee: newcomer,
    });
    const membership = await db.membership.findUniqueOrThrow({
      where: { workspaceId_userId: { workspaceId, userId: accepted.userId } },
    });
    const rows = await db.auditEvent.findMany({
      where: { workspaceId, action: "member.joined", targetId: membership.id },
    });
    expect(rows).toMatchObject([
      {
        actorType: "USER",
        actorId: accepted.userId,
        targetType: "Membership",
        outcome: "invitation",
      },
    ]);
  });
});

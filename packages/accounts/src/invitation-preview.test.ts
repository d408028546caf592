// What an invitation link shows before it is accepted: the workspace, the role and who invited,
// and whether it can still be used — never for a made-up token.
import { dbTest } from "@secondshift/db/testing/vitest";
import { expect } from "vitest";
import { previewInvitation } from "./invitation-preview.ts";
import { createUser, inviteForTest, testAccounts } from "./testing/index.ts";

const test = dbTest
  .extend("accounts", { scope: "file" }, ({ db }, { onCleanup }) => {
    const accounts = testAccounts(db);
    onCleanup(() => accounts.close());
    return accounts;
  })
  /** The workspace "Ops" and its owner, who sends the invitations. */
  .extend("workspace", { scope: "file" }, async ({ db }) => {
    const workspaceId = (await db.workspace.create({ data: { slug: "preview-ws", name: "Ops" } }))
      .id;
    const ownerId = (await createUser(db, "owner passphrase 0123", { workspaceId, role: "OWNER" }))
      .id;
    return { workspaceId, ownerId };
  })
  .extend(
    "invite",
    ({ db, accounts, workspace: { workspaceId, ownerId } }) =>
      (email: string, ttlMs?: number) =>
        inviteForTest(db, {
          workspaceId,
          invitedById: ownerId,
          email,
          role: "VIEWER",
          ttlMs,
          now: accounts.clock.now(),
        }),
  );

test("shows workspace, role, inviter and state: open, revoked, expired; nothing for an unknown token", async ({
  db,
  accounts,
  invite,
}) => {
  const open = await invite("open@example.test");
  expect(await previewInvitation(accounts.deps, open.token)).toMatchObject({
    state: "open",
    workspaceName: "Ops",
    role: "VIEWER",
    email: "open@example.test",
    inviterName: "Test User",
  });

  const revoked = await invite("revoked@example.test");
  await db.invitation.update({
    where: { id: revoked.invitationId },
    data: { revokedAt: accounts.clock.now() },
  });
  expect((await previewInvitation(accounts.deps, revoked.token))?.state).toBe("revoked");

  const expired = await invite("expired@example.test", -1000);
  expect((await previewInvitation(accounts.deps, expired.token))?.state).toBe("expired");

  expect(await previewInvitation(accounts.deps, "invitation_made-up")).toBeNull();
  expect(await previewInvitation(accounts.deps, "not even a token")).toBeNull();
});

// What an invitation link shows before it is accepted: the workspace, the role and who invited,
// and whether it can still be used — never for a made-up token.
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { afterAll, beforeAll, expect, it } from "vitest";
import { previewInvitation } from "./invitation-preview.ts";
import { createUser, inviteForTest, testAccounts, type TestAccounts } from "./testing/index.ts";

let t: TestDatabase;
let a: TestAccounts;
let workspaceId: string;
let ownerId: string;

beforeAll(async () => {
  t = await createTestDatabase();
  a = testAccounts(t.db);
  workspaceId = (await t.db.workspace.create({ data: { slug: "preview-ws", name: "Ops" } })).id;
  ownerId = (await createUser(t.db, "owner passphrase 0123", { workspaceId, role: "OWNER" })).id;
});
afterAll(async () => {
  await a.close();
  await t.drop();
});

const invite = (email: string, ttlMs?: number) =>
  inviteForTest(t.db, {
    workspaceId,
    invitedById: ownerId,
    email,
    role: "VIEWER",
    ttlMs,
    now: a.clock.now(),
  });

it("shows workspace, role, inviter and state: open, revoked, expired; nothing for an unknown token", async () => {
  const open = await invite("open@example.test");
  expect(await previewInvitation(a.deps, open.token)).toMatchObject({
    state: "open",
    workspaceName: "Ops",
    role: "VIEWER",
    email: "open@example.test",
    inviterName: "Test User",
  });

  const revoked = await invite("revoked@example.test");
  await t.db.invitation.update({
    where: { id: revoked.invitationId },
    data: { revokedAt: a.clock.now() },
  });
  expect((await previewInvitation(a.deps, revoked.token))?.state).toBe("revoked");

  const expired = await invite("expired@example.test", -1000);
  expect((await previewInvitation(a.deps, expired.token))?.state).toBe("expired");

  expect(await previewInvitation(a.deps, "invitation_made-up")).toBeNull();
  expect(await previewInvitation(a.deps, "not even a token")).toBeNull();
});

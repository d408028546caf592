import { dbTest } from "@secondshift/db/testing/vitest";
import { AppError } from "@secondshift/errors";
import { hashPassword } from "@secondshift/crypto";
import { describe, expect, vi } from "vitest";
import { createPasswordWork } from "./password-work.ts";
import { resolveSession } from "./sessions.ts";
import { needsSetup, setup, type SetupInput } from "./setup.ts";
import { testAccounts } from "./testing/index.ts";

/**
 * Account deps over a database as on a first run: no user and no workspace. Each test starts
 * from that state (emptying the file's database of every user and workspace, and of every row
 * that belongs to one).
 */
const test = dbTest.extend("deps", async ({ db }, { onCleanup }) => {
  await db.$executeRaw`TRUNCATE "User", "Workspace" CASCADE`;
  const accounts = testAccounts(db);
  onCleanup(() => accounts.close());
  return accounts.deps;
});

const input = (n: number, setupToken?: string): SetupInput => ({
  email: `Owner${n}@Example.test`,
  name: `Owner ${n}`,
  password: "a long enough passphrase",
  workspaceName: "Acme Corp",
  setupToken,
});

describe("first-run setup", () => {
  test("creates the first user, a workspace and its owner membership, signed in", async ({
    db,
    deps,
  }) => {
    expect(await needsSetup(db)).toBe(true);
    const result = await setup(deps, input(1), { expectedSetupToken: null });
    const user = await db.user.findUniqueOrThrow({ where: { id: result.userId } });
    expect(user.email).toBe("owner1@example.test");
    expect(user.passwordHash).toMatch(/^\$argon2id\$/);
    const workspace = await db.workspace.findUniqueOrThrow({ where: { id: result.workspaceId } });
    expect(workspace.slug).toMatch(/^acme-corp-[0-9a-f]{6}$/);
    expect(await db.membership.findMany({ where: { userId: result.userId } })).toMatchObject([
      { workspaceId: result.workspaceId, role: "OWNER" },
    ]);
    expect(await resolveSession(deps, result.token)).toMatchObject({ userId: result.userId });
    expect(await needsSetup(db)).toBe(false);
  });

  test("setup race: two at once give exactly one owner, the other a clean CONFLICT", async ({
    db,
    deps,
  }) => {
    const results = await Promise.allSettled([
      setup(deps, input(1), { expectedSetupToken: null }),
      setup(deps, input(2), { expectedSetupToken: null }),
      setup(deps, input(3), { expectedSetupToken: null }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect(r.reason).toBeInstanceOf(AppError);
      expect((r.reason as AppError).code).toBe("CONFLICT");
      expect((r.reason as AppError).reason).toBe("ALREADY_SET_UP");
    }
    expect(await db.user.count()).toBe(1);
    expect(await db.workspace.count()).toBe(1);
    expect(await db.membership.count({ where: { role: "OWNER" } })).toBe(1);
  });

  test("is refused once a user exists", async ({ db, deps }) => {
    await setup(deps, input(1), { expectedSetupToken: null });
    const error = await setup(deps, input(2), { expectedSetupToken: null }).catch(
      (e: unknown) => e,
    );
    expect((error as AppError).reason).toBe("ALREADY_SET_UP");
    expect(await db.user.count()).toBe(1);
  });

  test("requires the one-time setup token when the operator asks for it", async ({ db, deps }) => {
    const expected = "setup-token-1234567890abcdef";
    for (const presented of [undefined, "", "setup-token-1234567890abcdeX", expected + "x"]) {
      const error = await setup(deps, input(1, presented), { expectedSetupToken: expected }).catch(
        (e: unknown) => e,
      );
      expect((error as AppError).code).toBe("FORBIDDEN");
      expect((error as AppError).message).not.toContain(expected);
    }
    expect(await db.user.count()).toBe(0);
    await setup(deps, input(1, expected), { expectedSetupToken: expected });
    expect(await db.user.count()).toBe(1);
  });
});

describe("first-run setup's audit and cost", () => {
  test("records the workspace's creation and the owner's joining, by the new owner", async ({
    db,
    deps,
  }) => {
    const result = await setup(deps, input(7), { expectedSetupToken: null });
    const rows = await db.auditEvent.findMany({
      where: { workspaceId: result.workspaceId },
      orderBy: { createdAt: "asc" },
    });
    const membership = await db.membership.findFirstOrThrow({ where: { userId: result.userId } });
    expect(rows).toMatchObject([
      { action: "workspace.created", actorId: result.userId, targetId: result.workspaceId },
      {
        action: "member.joined",
        actorId: result.userId,
        targetType: "Membership",
        targetId: membership.id,
        outcome: "first_run_setup",
      },
    ]);
  });

  test("once set up, a setup call (token waived) is refused without an argon2id hash", async ({
    deps,
  }) => {
    const hash = vi.fn((pw: string) => hashPassword(pw));
    const counted = { ...deps, passwords: createPasswordWork({ hash }) };
    await setup(counted, input(8), { expectedSetupToken: null });
    expect(hash).toHaveBeenCalledTimes(1);
    const again = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        setup(counted, input(9 + i), { expectedSetupToken: null }),
      ),
    );
    expect(again.map((r) => r.status === "rejected" && (r.reason as AppError).reason)).toEqual(
      Array(20).fill("ALREADY_SET_UP"),
    );
    expect(hash).toHaveBeenCalledTimes(1);
  });
});

import { dbTest } from "@secondshift/db/testing/vitest";
import { AppError } from "@secondshift/errors";
import { describe, expect } from "vitest";
import { changePassword } from "./password.ts";
import {
  listSessions,
  resolveSession,
  revokeSession,
  signOut,
  signOutEverywhere,
} from "./sessions.ts";
import { signIn } from "./sign-in.ts";
import { createUser, testAccounts } from "./testing/index.ts";

const password = "correct horse battery staple";
const minutes = (n: number) => n * 60_000;

const test = dbTest
  .extend("accounts", { scope: "file" }, ({ db }, { onCleanup }) => {
    const accounts = testAccounts(db, {
      sessions: { idleMs: minutes(30), absoluteMs: minutes(120) },
    });
    onCleanup(() => accounts.close());
    return accounts;
  })
  .extend(
    "signedIn",
    ({ accounts }) =>
      (email: string) =>
        signIn(accounts.deps, { email, password, clientAddress: "127.0.0.1" }),
  );

describe("sessions", () => {
  test("stores only the SHA-256 of the token, and a fresh token at every sign-in", async ({
    db,
    signedIn,
  }) => {
    const user = await createUser(db, password);
    const first = await signedIn(user.email);
    const second = await signedIn(user.email.toUpperCase());
    expect(first.token).not.toBe(second.token);
    expect(first.token).toMatch(/^ss_ses_/);
    const rows = await db.session.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(Buffer.from(row.tokenHash).toString("latin1")).not.toContain(first.token);
      expect(Buffer.from(row.tokenHash)).toHaveLength(32);
    }
  });

  test("a token planted before sign-in is never a session afterwards (fixation)", async ({
    db,
    accounts,
    signedIn,
  }) => {
    const user = await createUser(db, password);
    const planted = "ss_ses_" + "A".repeat(43);
    const issued = await signedIn(user.email);
    expect(issued.token).not.toBe(planted);
    expect(await resolveSession(accounts.deps, planted)).toBeNull();
    expect(await resolveSession(accounts.deps, issued.token)).toMatchObject({ userId: user.id });
  });

  test("idle expiry slides with use (written at most once a minute); absolute expiry holds", async ({
    db,
    accounts,
    signedIn,
  }) => {
    const user = await createUser(db, password);
    const { token, sessionId } = await signedIn(user.email);
    const expiresAt = async () =>
      (await db.session.findUniqueOrThrow({ where: { id: sessionId } })).expiresAt.getTime();
    const initial = await expiresAt();
    accounts.clock.advance(30_000);
    expect(await resolveSession(accounts.deps, token)).not.toBeNull();
    expect(await expiresAt()).toBe(initial); // under a minute: no write
    // Used every 20 minutes, the session lives on past its first idle deadline…
    for (let i = 0; i < 5; i++) {
      accounts.clock.advance(minutes(20));
      expect(await resolveSession(accounts.deps, token)).not.toBeNull();
    }
    // …but not past the absolute end (2 h after sign-in).
    accounts.clock.advance(minutes(20));
    expect(await resolveSession(accounts.deps, token)).toBeNull();

    const idle = await signedIn(user.email);
    accounts.clock.advance(minutes(31));
    expect(await resolveSession(accounts.deps, idle.token)).toBeNull();
  });

  test("a stolen cookie stops working after sign-out", async ({ db, accounts, signedIn }) => {
    const user = await createUser(db, password);
    const { token } = await signedIn(user.email);
    const stolen = token;
    await signOut(accounts.deps, token);
    expect(await resolveSession(accounts.deps, stolen)).toBeNull();
  });

  test("sign out everywhere ends every session of the user and no one else's", async ({
    db,
    accounts,
    signedIn,
  }) => {
    const user = await createUser(db, password);
    const other = await createUser(db, password);
    const tokens = [await signedIn(user.email), await signedIn(user.email)];
    const otherSession = await signedIn(other.email);
    expect(await signOutEverywhere(accounts.deps, user.id)).toBe(2);
    for (const s of tokens) expect(await resolveSession(accounts.deps, s.token)).toBeNull();
    expect(await resolveSession(accounts.deps, otherSession.token)).not.toBeNull();
  });

  test("[P05] lists and revokes only one's own sessions; another user's session id is not found", async ({
    db,
    accounts,
    signedIn,
  }) => {
    const user = await createUser(db, password);
    const other = await createUser(db, password);
    const mine = await signedIn(user.email);
    const mySecond = await signedIn(user.email);
    const theirs = await signedIn(other.email);
    const current = (await resolveSession(accounts.deps, mine.token))!;
    const listed = await listSessions(accounts.deps, current);
    // The device and address it was signed in from (none given here but the address).
    expect(listed.find((s) => s.current)).toMatchObject({
      clientAddress: "127.0.0.1",
      userAgent: null,
    });
    expect(listed.map((s) => s.id).sort()).toEqual([mine.sessionId, mySecond.sessionId].sort());
    expect(listed.find((s) => s.current)?.id).toBe(mine.sessionId);
    expect(JSON.stringify(listed)).not.toMatch(/ss_ses_|tokenHash/);

    const error = await revokeSession(accounts.deps, user.id, theirs.sessionId).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("NOT_FOUND");
    expect(await resolveSession(accounts.deps, theirs.token)).not.toBeNull();

    await revokeSession(accounts.deps, user.id, mySecond.sessionId);
    expect(await resolveSession(accounts.deps, mySecond.token)).toBeNull();
    expect(await resolveSession(accounts.deps, mine.token)).not.toBeNull();
  });

  test("a password change needs the current password, revokes every session and issues a fresh one", async ({
    db,
    accounts,
    signedIn,
  }) => {
    const user = await createUser(db, password);
    const here = await signedIn(user.email);
    const elsewhere = await signedIn(user.email);
    const wrong = await changePassword(accounts.deps, {
      userId: user.id,
      currentPassword: "not the password",
      newPassword: "a brand new passphrase",
    }).catch((e: unknown) => e);
    expect((wrong as AppError).reason).toBe("CURRENT_PASSWORD_WRONG");
    expect(await resolveSession(accounts.deps, elsewhere.token)).not.toBeNull();

    const fresh = await changePassword(accounts.deps, {
      userId: user.id,
      currentPassword: password,
      newPassword: "a brand new passphrase",
    });
    expect(await resolveSession(accounts.deps, here.token)).toBeNull();
    expect(await resolveSession(accounts.deps, elsewhere.token)).toBeNull();
    expect(await resolveSession(accounts.deps, fresh.token)).toMatchObject({ userId: user.id });
    await expect(signedIn(user.email)).rejects.toThrow(/email or password is wrong/);
    await expect(
      signIn(accounts.deps, {
        email: user.email,
        password: "a brand new passphrase",
        clientAddress: "127.0.0.2",
      }),
    ).resolves.toMatchObject({ userId: user.id });
  });
});

import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { AppError } from "@secondshift/errors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePassword } from "./password.ts";
import {
  listSessions,
  resolveSession,
  revokeSession,
  signOut,
  signOutEverywhere,
} from "./sessions.ts";
import { signIn } from "./sign-in.ts";
import { createUser, testAccounts, type TestAccounts } from "./testing/index.ts";

let t: TestDatabase;
let a: TestAccounts;
const password = "correct horse battery staple";
const minutes = (n: number) => n * 60_000;

beforeAll(async () => {
  t = await createTestDatabase();
  a = testAccounts(t.db, { sessions: { idleMs: minutes(30), absoluteMs: minutes(120) } });
});
afterAll(async () => {
  await a.close();
  await t.drop();
});

async function signedIn(email: string) {
  return signIn(a.deps, { email, password, clientAddress: "127.0.0.1" });
}

describe("sessions", () => {
  it("stores only the SHA-256 of the token, and a fresh token at every sign-in", async () => {
    const user = await createUser(t.db, password);
    const first = await signedIn(user.email);
    const second = await signedIn(user.email.toUpperCase());
    expect(first.token).not.toBe(second.token);
    expect(first.token).toMatch(/^ss_ses_/);
    const rows = await t.db.session.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(Buffer.from(row.tokenHash).toString("latin1")).not.toContain(first.token);
      expect(Buffer.from(row.tokenHash)).toHaveLength(32);
    }
  });

  it("a token planted before sign-in is never a session afterwards (fixation)", async () => {
    const user = await createUser(t.db, password);
    const planted = "ss_ses_" + "A".repeat(43);
    const issued = await signedIn(user.email);
    expect(issued.token).not.toBe(planted);
    expect(await resolveSession(a.deps, planted)).toBeNull();
    expect(await resolveSession(a.deps, issued.token)).toMatchObject({ userId: user.id });
  });

  it("idle expiry slides with use (written at most once a minute); absolute expiry holds", async () => {
    const user = await createUser(t.db, password);
    const { token, sessionId } = await signedIn(user.email);
    const expiresAt = async () =>
      (await t.db.session.findUniqueOrThrow({ where: { id: sessionId } })).expiresAt.getTime();
    const initial = await expiresAt();
    a.clock.advance(30_000);
    expect(await resolveSession(a.deps, token)).not.toBeNull();
    expect(await expiresAt()).toBe(initial); // under a minute: no write
    // Used every 20 minutes, the session lives on past its first idle deadline…
    for (let i = 0; i < 5; i++) {
      a.clock.advance(minutes(20));
      expect(await resolveSession(a.deps, token)).not.toBeNull();
    }
    // …but not past the absolute end (2 h after sign-in).
    a.clock.advance(minutes(20));
    expect(await resolveSession(a.deps, token)).toBeNull();

    const idle = await signedIn(user.email);
    a.clock.advance(minutes(31));
    expect(await resolveSession(a.deps, idle.token)).toBeNull();
  });

  it("a stolen cookie stops working after sign-out", async () => {
    const user = await createUser(t.db, password);
    const { token } = await signedIn(user.email);
    const stolen = token;
    await signOut(a.deps, token);
    expect(await resolveSession(a.deps, stolen)).toBeNull();
  });

  it("sign out everywhere ends every session of the user and no one else's", async () => {
    const user = await createUser(t.db, password);
    const other = await createUser(t.db, password);
    const tokens = [await signedIn(user.email), await signedIn(user.email)];
    const otherSession = await signedIn(other.email);
    expect(await signOutEverywhere(a.deps, user.id)).toBe(2);
    for (const s of tokens) expect(await resolveSession(a.deps, s.token)).toBeNull();
    expect(await resolveSession(a.deps, otherSession.token)).not.toBeNull();
  });

  it("[P05] lists and revokes only one's own sessions; another user's session id is not found", async () => {
    const user = await createUser(t.db, password);
    const other = await createUser(t.db, password);
    const mine = await signedIn(user.email);
    const mySecond = await signedIn(user.email);
    const theirs = await signedIn(other.email);
    const current = (await resolveSession(a.deps, mine.token))!;
    const listed = await listSessions(a.deps, current);
    expect(listed.map((s) => s.id).sort()).toEqual([mine.sessionId, mySecond.sessionId].sort());
    expect(listed.find((s) => s.current)?.id).toBe(mine.sessionId);
    expect(JSON.stringify(listed)).not.toMatch(/ss_ses_|tokenHash/);

    const error = await revokeSession(a.deps, user.id, theirs.sessionId).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe("NOT_FOUND");
    expect(await resolveSession(a.deps, theirs.token)).not.toBeNull();

    await revokeSession(a.deps, user.id, mySecond.sessionId);
    expect(await resolveSession(a.deps, mySecond.token)).toBeNull();
    expect(await resolveSession(a.deps, mine.token)).not.toBeNull();
  });

  it("a password change needs the current password, revokes every session and issues a fresh one", async () => {
    const user = await createUser(t.db, password);
    const here = await signedIn(user.email);
    const elsewhere = await signedIn(user.email);
    const wrong = await changePassword(a.deps, {
      userId: user.id,
      currentPassword: "not the password",
      newPassword: "a brand new passphrase",
    }).catch((e: unknown) => e);
    expect((wrong as AppError).reason).toBe("CURRENT_PASSWORD_WRONG");
    expect(await resolveSession(a.deps, elsewhere.token)).not.toBeNull();

    const fresh = await changePassword(a.deps, {
      userId: user.id,
      currentPassword: password,
      newPassword: "a brand new passphrase",
    });
    expect(await resolveSession(a.deps, here.token)).toBeNull();
    expect(await resolveSession(a.deps, elsewhere.token)).toBeNull();
    expect(await resolveSession(a.deps, fresh.token)).toMatchObject({ userId: user.id });
    await expect(signedIn(user.email)).rejects.toThrow(/email or password is wrong/);
    await expect(
      signIn(a.deps, {
        email: user.email,
        password: "a brand new passphrase",
        clientAddress: "127.0.0.2",
      }),
    ).resolves.toMatchObject({ userId: user.id });
  });
});

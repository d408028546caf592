import { verifyPassword } from "@secondshift/crypto";
import { createPasswordWork } from "./password-work.ts";
import { dbTest } from "@secondshift/db/testing/vitest";
import type { AppError } from "@secondshift/errors";
import { describe, expect, vi } from "vitest";
import { signIn } from "./sign-in.ts";
import { createUser, testAccounts, type TestAccounts } from "./testing/index.ts";

const password = "correct horse battery staple";

/** Account deps with these rate limits, password verification spied on; closed after the test. */
const test = dbTest.extend("accounts", ({ db }, { onCleanup }) => {
  const opened: TestAccounts[] = [];
  onCleanup(async () => {
    for (const a of opened) await a.close();
  });
  return (limits = {}) => {
    const verify = vi.fn(verifyPassword);
    const a = testAccounts(db, { passwords: createPasswordWork({ verify }) }, limits);
    opened.push(a);
    return { ...a, verify };
  };
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as AppError,
  );

describe("sign-in", () => {
  test("an unknown email runs the same argon2id verify as a wrong password and gets the same answer", async ({
    db,
    accounts,
  }) => {
    const { deps, verify } = accounts();
    const user = await createUser(db, password);
    const wrong = await failure(
      signIn(deps, { email: user.email, password: "guess", clientAddress: "10.0.0.1" }),
    );
    const unknown = await failure(
      signIn(deps, { email: "nobody@example.test", password: "guess", clientAddress: "10.0.0.2" }),
    );
    expect(verify).toHaveBeenCalledTimes(2);
    for (const [hash] of verify.mock.calls) expect(hash).toMatch(/^\$argon2id\$/);
    expect(unknown.code).toBe(wrong.code);
    expect(unknown.message).toBe(wrong.message);
    expect(unknown.reason).toBe("INVALID_CREDENTIALS");
  });

  test("brute force on one account is limited, even when the right password comes next", async ({
    db,
    accounts,
  }) => {
    const { deps } = accounts({ maxPerAccount: 3, maxPerAddress: 100 });
    const user = await createUser(db, password);
    for (let i = 0; i < 3; i++) {
      const e = await failure(
        signIn(deps, { email: user.email, password: `guess-${i}`, clientAddress: `10.1.0.${i}` }),
      );
      expect(e.code).toBe("UNAUTHORIZED");
    }
    const limited = await failure(
      signIn(deps, { email: user.email, password, clientAddress: "10.1.0.99" }),
    );
    expect(limited.code).toBe("TOO_MANY_REQUESTS");
    expect(limited.message).toMatch(/Try again in 15 minutes/);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(0);
  });

  test("parallel guesses cannot slip past the account limit", async ({ db, accounts }) => {
    const { deps } = accounts({ maxPerAccount: 3, maxPerAddress: 100 });
    const user = await createUser(db, password);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        failure(signIn(deps, { email: user.email, password: `g${i}`, clientAddress: "10.2.0.1" })),
      ),
    );
    expect(results.filter((e) => e.code === "UNAUTHORIZED")).toHaveLength(3);
    expect(results.filter((e) => e.code === "TOO_MANY_REQUESTS")).toHaveLength(7);
  });

  test("one client address guessing across many emails is limited", async ({ db, accounts }) => {
    const { deps } = accounts({ maxPerAccount: 100, maxPerAddress: 4 });
    const user = await createUser(db, password);
    for (let i = 0; i < 4; i++) {
      await failure(
        signIn(deps, {
          email: `victim-${i}@example.test`,
          password: "x",
          clientAddress: "10.3.0.1",
        }),
      );
    }
    const limited = await failure(
      signIn(deps, { email: user.email, password, clientAddress: "10.3.0.1" }),
    );
    expect(limited.code).toBe("TOO_MANY_REQUESTS");
    // Another address is not affected.
    await expect(
      signIn(deps, { email: user.email, password, clientAddress: "10.3.0.2" }),
    ).resolves.toMatchObject({ userId: user.id });
  });

  test("a successful sign-in clears the account's failure count", async ({ db, accounts }) => {
    const { deps } = accounts({ maxPerAccount: 3, maxPerAddress: 100 });
    const user = await createUser(db, password);
    const attempt = (pw: string) =>
      signIn(deps, { email: user.email, password: pw, clientAddress: "10.4.0.1" });
    await failure(attempt("a"));
    await failure(attempt("b"));
    await attempt(password);
    await failure(attempt("c"));
    await failure(attempt("d"));
    await expect(attempt(password)).resolves.toMatchObject({ userId: user.id });
  });
});

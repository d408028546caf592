import { verifyPassword } from "@secondshift/crypto";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import type { AppError } from "@secondshift/errors";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { signIn } from "./sign-in.ts";
import { createUser, testAccounts } from "./testing/index.ts";

let t: TestDatabase;
const password = "correct horse battery staple";
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  for (const close of closers) await close();
  await t.drop();
});

function accounts(limits = {}) {
  const verify = vi.fn(verifyPassword);
  const a = testAccounts(t.db, { verifyPassword: verify }, limits);
  closers.push(() => a.close());
  return { ...a, verify };
}

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: unknown) => e as AppError,
  );

describe("sign-in", () => {
  it("an unknown email runs the same argon2id verify as a wrong password and gets the same answer", async () => {
    const { deps, verify } = accounts();
    const user = await createUser(t.db, password);
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

  it("brute force on one account is limited, even when the right password comes next", async () => {
    const { deps } = accounts({ maxPerAccount: 3, maxPerAddress: 100 });
    const user = await createUser(t.db, password);
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
    expect(await t.db.session.count({ where: { userId: user.id } })).toBe(0);
  });

  it("parallel guesses cannot slip past the account limit", async () => {
    const { deps } = accounts({ maxPerAccount: 3, maxPerAddress: 100 });
    const user = await createUser(t.db, password);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        failure(signIn(deps, { email: user.email, password: `g${i}`, clientAddress: "10.2.0.1" })),
      ),
    );
    expect(results.filter((e) => e.code === "UNAUTHORIZED")).toHaveLength(3);
    expect(results.filter((e) => e.code === "TOO_MANY_REQUESTS")).toHaveLength(7);
  });

  it("one client address guessing across many emails is limited", async () => {
    const { deps } = accounts({ maxPerAccount: 100, maxPerAddress: 4 });
    const user = await createUser(t.db, password);
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

  it("a successful sign-in clears the account's failure count", async () => {
    const { deps } = accounts({ maxPerAccount: 3, maxPerAddress: 100 });
    const user = await createUser(t.db, password);
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

// What every account use case needs, built once at the app's entry and passed in: the database,
// the login rate limiter, the session lifetimes and a clock (tests inject one to walk through
// idle and absolute expiry without waiting).
import type { Db, Prisma } from "@secondshift/db";
import type { AuthCallLimiter, LoginRateLimiter } from "./rate-limit.ts";
import { dummyPasswordHash } from "./dummy-hash.ts";
import { createPasswordWork, type PasswordWork } from "./password-work.ts";

export type DbClient = Db | Prisma.TransactionClient;

export interface SessionPolicy {
  /** A session unused for this long ends (sliding). */
  idleMs: number;
  /** A session ends this long after sign-in, however active. */
  absoluteMs: number;
}

export interface AccountsDeps {
  db: Db;
  limiter: LoginRateLimiter;
  /** Unauthenticated auth calls per client address and overall (the API's auth procedures). */
  authCalls: AuthCallLimiter;
  sessions: SessionPolicy;
  now: () => Date;
  /** Every argon2id hash and verify, through one bounded queue (password-work.ts). */
  passwords: PasswordWork;
}

export const defaultSessionPolicy: SessionPolicy = {
  idleMs: 7 * 24 * 3600_000,
  absoluteMs: 30 * 24 * 3600_000,
};

export function createAccountsDeps(
  options: Pick<AccountsDeps, "db" | "limiter" | "authCalls"> & Partial<AccountsDeps>,
): AccountsDeps {
  // Made now, so that the first unknown email does not take longer than a wrong password.
  void dummyPasswordHash();
  return {
    sessions: defaultSessionPolicy,
    now: () => new Date(),
    passwords: createPasswordWork(),
    ...options,
  };
}

/** Emails are compared and stored trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

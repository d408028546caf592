// What every account use case needs, built once at the app's entry and passed in: the database,
// the login rate limiter, the session lifetimes and a clock (tests inject one to walk through
// idle and absolute expiry without waiting).
import type { Db, Prisma } from "@secondshift/db";
import { verifyPassword } from "@secondshift/crypto";
import type { LoginRateLimiter } from "./rate-limit.ts";
import { dummyPasswordHash } from "./dummy-hash.ts";

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
  sessions: SessionPolicy;
  now: () => Date;
  /** The one argon2id verify every sign-in path calls (replaceable so tests can count calls). */
  verifyPassword: (storedHash: string, password: string) => Promise<boolean>;
}

export const defaultSessionPolicy: SessionPolicy = {
  idleMs: 7 * 24 * 3600_000,
  absoluteMs: 30 * 24 * 3600_000,
};

export function createAccountsDeps(
  options: Pick<AccountsDeps, "db" | "limiter"> & Partial<AccountsDeps>,
): AccountsDeps {
  // Made now, so that the first unknown email does not take longer than a wrong password.
  void dummyPasswordHash();
  return {
    sessions: defaultSessionPolicy,
    now: () => new Date(),
    verifyPassword,
    ...options,
  };
}

/** Emails are compared and stored trimmed and lower-cased. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

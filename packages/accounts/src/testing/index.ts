// Test helpers: account deps over a test database and the test Redis (a fresh key prefix per
// call, so files and tests never share rate-limit counters), with a clock tests can move.
import { randomUUID } from "node:crypto";
import { hashPassword, mintToken } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { Redis } from "ioredis";
import { createAccountsDeps, type AccountsDeps } from "../deps.ts";
import {
  createAuthCallLimiter,
  createLoginRateLimiter,
  defaultAuthCallLimit,
  defaultLoginRateLimit,
} from "../rate-limit.ts";

export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

export function testClock(start = new Date()): TestClock {
  let current = start.getTime();
  return { now: () => new Date(current), advance: (ms) => void (current += ms) };
}

export interface TestAccounts {
  deps: AccountsDeps;
  clock: TestClock;
  redis: Redis;
  close(): Promise<void>;
}

export function testAccounts(
  db: Db,
  overrides: Partial<AccountsDeps> = {},
  limits: Partial<typeof defaultLoginRateLimit> = {},
): TestAccounts {
  const url = process.env.TEST_REDIS_URL;
  if (!url)
    throw new Error("TEST_REDIS_URL is not set: run the tests through scripts/test-all.sh.");
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  const clock = testClock();
  const prefix = `sstest-${randomUUID().slice(0, 12)}`;
  const limiter = createLoginRateLimiter(redis, { ...defaultLoginRateLimit, prefix, ...limits });
  const authCalls = createAuthCallLimiter(redis, { ...defaultAuthCallLimit, prefix });
  const deps = createAccountsDeps({ db, limiter, authCalls, now: clock.now, ...overrides });
  return {
    deps,
    clock,
    redis,
    close: () =>
      redis.quit().then(
        () => undefined,
        () => redis.disconnect(),
      ),
  };
}

/** A user with a known password (and optionally a workspace membership). */
export async function createUser(
  db: Db,
  password: string,
  membership?: { workspaceId: string; role: "OWNER" | "ADMIN" | "VIEWER" },
): Promise<{ id: string; email: string }> {
  const email = `user-${randomUUID().slice(0, 8)}@example.test`;
  const user = await db.user.create({
    data: { email, name: "Test User", passwordHash: await hashPassword(password) },
    select: { id: true, email: true },
  });
  if (membership) await db.membership.create({ data: { ...membership, userId: user.id } });
  return user;
}

/**
 * A pending invitation as the owner's use case (`createInvitation` in @secondshift/domain)
 * stores it: only the token's hash. For acceptance tests; returns the token the link carries.
 */
export async function inviteForTest(
  db: Db,
  input: {
    workspaceId: string;
    invitedById: string;
    email: string;
    role: "OWNER" | "ADMIN" | "VIEWER";
    ttlMs?: number;
    /** The clock expiry counts from (the test's accounts clock). */
    now?: Date;
  },
): Promise<{ invitationId: string; token: string }> {
  const { token, hash } = mintToken("invitation");
  const row = await db.invitation.create({
    data: {
      workspaceId: input.workspaceId,
      email: input.email.trim().toLowerCase(),
      role: input.role,
      tokenHash: hash,
      invitedById: input.invitedById,
      expiresAt: new Date((input.now ?? new Date()).getTime() + (input.ttlMs ?? 7 * 24 * 3600_000)),
    },
    select: { id: true },
  });
  return { invitationId: row.id, token };
}

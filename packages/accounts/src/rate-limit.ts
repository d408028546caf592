// Login rate limit in Redis: fixed windows per account (normalised email) and per client
// address. Every attempt is counted before the password is checked, so parallel guesses cannot
// slip past the limit. A successful sign-in clears its account's count; the address keeps
// counting (a shared address gets maxPerAddress attempts per window, successes included).
import { createHash } from "node:crypto";
import { AppError } from "@secondshift/errors";
import type { Redis } from "ioredis";

export interface LoginRateLimitPolicy {
  maxPerAccount: number;
  maxPerAddress: number;
  windowSeconds: number;
  /** Key prefix, so tests and several deployments can share one Redis. */
  prefix: string;
}

export const defaultLoginRateLimit: LoginRateLimitPolicy = {
  maxPerAccount: 5,
  maxPerAddress: 20,
  windowSeconds: 15 * 60,
  prefix: "secondshift",
};

export interface LoginRateLimiter {
  /** Counts one attempt; throws TOO_MANY_REQUESTS when either limit is passed. */
  consume(email: string, clientAddress: string): Promise<void>;
  succeeded(email: string): Promise<void>;
}

const digest = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 32);

export function createLoginRateLimiter(
  redis: Redis,
  policy: LoginRateLimitPolicy = defaultLoginRateLimit,
): LoginRateLimiter {
  const keys = (email: string, address: string) => ({
    account: `${policy.prefix}:login:account:${digest(email)}`,
    address: `${policy.prefix}:login:address:${digest(address)}`,
  });

  async function refuse(key: string): Promise<never> {
    const ttl = await redis.ttl(key);
    const minutes = Math.max(1, Math.ceil((ttl > 0 ? ttl : policy.windowSeconds) / 60));
    throw new AppError(
      "TOO_MANY_REQUESTS",
      `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
      { reason: "LOGIN_RATE_LIMITED" },
    );
  }

  return {
    async consume(email, clientAddress) {
      const { account, address } = keys(email, clientAddress);
      const results = await redis
        .multi()
        .incr(account)
        .expire(account, policy.windowSeconds, "NX")
        .incr(address)
        .expire(address, policy.windowSeconds, "NX")
        .exec();
      const count = (i: number) => Number(results?.[i]?.[1] ?? Infinity);
      if (count(0) > policy.maxPerAccount) await refuse(account);
      if (count(2) > policy.maxPerAddress) await refuse(address);
    },
    async succeeded(email) {
      await redis.del(keys(email, "").account);
    },
  };
}

/**
 * The calls anyone can make without signing in that do real work (sign-in, first-run setup,
 * accepting or previewing an invitation): fixed windows per client address and for the whole
 * installation, so neither one address nor many can keep the process hashing.
 */
export interface AuthCallLimitPolicy {
  maxPerAddress: number;
  maxOverall: number;
  windowSeconds: number;
  prefix: string;
}

export const defaultAuthCallLimit: AuthCallLimitPolicy = {
  maxPerAddress: 60,
  maxOverall: 600,
  windowSeconds: 10 * 60,
  prefix: "secondshift",
};

export interface AuthCallLimiter {
  /** Counts one call; throws TOO_MANY_REQUESTS past either limit. */
  consume(clientAddress: string): Promise<void>;
}

export function createAuthCallLimiter(
  redis: Redis,
  policy: AuthCallLimitPolicy = defaultAuthCallLimit,
): AuthCallLimiter {
  const overall = `${policy.prefix}:auth-calls:overall`;
  return {
    async consume(clientAddress) {
      const address = `${policy.prefix}:auth-calls:address:${digest(clientAddress)}`;
      const results = await redis
        .multi()
        .incr(address)
        .expire(address, policy.windowSeconds, "NX")
        .incr(overall)
        .expire(overall, policy.windowSeconds, "NX")
        .exec();
      const count = (i: number) => Number(results?.[i]?.[1] ?? Infinity);
      if (count(0) > policy.maxPerAddress || count(2) > policy.maxOverall) {
        const ttl = await redis.ttl(count(0) > policy.maxPerAddress ? address : overall);
        const minutes = Math.max(1, Math.ceil((ttl > 0 ? ttl : policy.windowSeconds) / 60));
        throw new AppError(
          "TOO_MANY_REQUESTS",
          `Too many sign-in, setup or invitation requests. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`,
          { reason: "AUTH_CALLS_RATE_LIMITED" },
        );
      }
    },
  };
}

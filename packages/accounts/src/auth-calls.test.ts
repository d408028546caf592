import { randomUUID } from "node:crypto";
import type { AppError } from "@secondshift/errors";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createAuthCallLimiter } from "./rate-limit.ts";

const redis = new Redis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", {
  maxRetriesPerRequest: 1,
});
afterAll(() => redis.quit());

const limiter = (maxPerAddress: number, maxOverall: number) =>
  createAuthCallLimiter(redis, {
    maxPerAddress,
    maxOverall,
    windowSeconds: 60,
    prefix: `sstest-${randomUUID().slice(0, 12)}`,
  });

const outcome = (call: Promise<void>) =>
  call.then(
    () => "ok",
    (e: unknown) => (e as AppError).reason,
  );

describe("unauthenticated auth calls are rate limited", () => {
  it("per client address: one address past its limit is refused, another still gets through", async () => {
    const limits = limiter(3, 100);
    const first = await Promise.all(
      Array.from({ length: 5 }, () => outcome(limits.consume("203.0.113.7"))),
    );
    expect(first.filter((o) => o === "ok")).toHaveLength(3);
    expect(first.filter((o) => o === "AUTH_CALLS_RATE_LIMITED")).toHaveLength(2);
    expect(await outcome(limits.consume("198.51.100.9"))).toBe("ok");
  });

  it("overall: many addresses together are refused past the installation's limit, with a time to wait", async () => {
    const limits = limiter(100, 10);
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) => outcome(limits.consume(`192.0.2.${i}`))),
    );
    expect(results.filter((o) => o === "ok")).toHaveLength(10);
    const refused = await limits.consume("192.0.2.200").catch((e: unknown) => e as AppError);
    expect(refused).toMatchObject({ code: "TOO_MANY_REQUESTS" });
    expect((refused as AppError).message).toMatch(/Try again in 1 minute\./);
  });
});

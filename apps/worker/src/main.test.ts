// The worker entry: configuration errors and a wrong encryption key stop it before any
// processor starts (P07); with the right key it starts and exits cleanly on SIGTERM.
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { startService } from "@secondshift/service/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const main = resolve(dirname(fileURLToPath(import.meta.url)), "main.ts");
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const baseEnv = (key: string) => ({
  DATABASE_URL: t.url,
  REDIS_URL: process.env.TEST_REDIS_URL,
  SECONDSHIFT_ENCRYPTION_KEY: key,
  SECONDSHIFT_PUBLIC_URL: "http://127.0.0.1:3000",
  SECONDSHIFT_GATEWAY_URL: "http://127.0.0.1:4000",
  SANDBOX_IMAGE: process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test",
  LOG_LEVEL: "info",
});

describe("worker service startup", () => {
  it("a missing variable stops it with a message naming the variable", async () => {
    const run = startService(main, {
      ...baseEnv(randomBytes(32).toString("base64")),
      SECONDSHIFT_GATEWAY_URL: undefined,
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("SECONDSHIFT_GATEWAY_URL: is missing");
  });

  it("[P07][C13] starts with the right key and refuses to start with the wrong one", async () => {
    const key = randomBytes(32).toString("base64");
    const first = startService(main, baseEnv(key));
    const deadline = Date.now() + 60_000;
    while (
      !first.output().includes("worker started") &&
      first.child.exitCode === null &&
      Date.now() < deadline
    ) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(first.output()).toContain("worker started");
    first.child.kill("SIGTERM");
    expect(await first.exited, first.output().slice(-3000)).toBe(0);

    const wrongKey = randomBytes(32).toString("base64");
    const second = startService(main, baseEnv(wrongKey));
    expect(await second.exited).toBe(1);
    expect(second.output()).toMatch(/Refusing to start/);
    expect(second.output()).not.toContain(wrongKey);
    expect(second.output()).not.toContain(key);

    // Production refuses runc before anything starts.
    const runc = startService(main, { ...baseEnv(key), SANDBOX_RUNTIME: "runc" });
    expect(await runc.exited).toBe(1);
    expect(runc.output()).toContain("SANDBOX_RUNTIME");
    // Three service starts, each waited for up to 60 s above: the default 30 s is too short on a
    // loaded machine (seen at 38 s with a load average of 36).
  }, 180_000);
});

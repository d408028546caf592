// The worker entry: configuration errors stop it; a wrong encryption key leaves it up but not
// ready, naming the key id the data needs, with no processor started (P07); with the right key
// it starts and exits cleanly on SIGTERM.
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { keyIdOf } from "@secondshift/crypto";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { freePort, keyMismatchAnswers, startService } from "@secondshift/service/testing";
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

  it("[P07][C13] starts with the right key; with the wrong one it starts nothing and is not ready, naming the key id", async () => {
    const key = randomBytes(32).toString("base64");
    const first = startService(main, { ...baseEnv(key), PORT: String(await freePort()) });
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
    const port = await freePort();
    const second = startService(main, { ...baseEnv(wrongKey), PORT: String(port) });
    const answers = await keyMismatchAnswers(port, second);
    const neededId = keyIdOf(Buffer.from(key, "base64"));
    expect(answers.healthzStatus).toBe(200);
    expect(answers.readyzStatus).toBe(503);
    expect(answers.readyzBody.status).toBe("not ready");
    const [check, ...others] = answers.readyzBody.checks;
    expect([check?.name, check?.ok, others]).toEqual(["key", false, []]);
    expect(check?.message).toContain(`encrypted with key ${neededId}`);
    expect(second.output()).toContain(neededId);
    expect(second.output()).not.toContain("worker started");
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
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

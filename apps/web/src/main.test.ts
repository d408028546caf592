// The web entry: configuration errors stop it; a wrong encryption key leaves it serving only
// /healthz and a not-ready /readyz naming the key id the data needs (P07).
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { keyIdOf } from "@secondshift/crypto";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import { freePort, keyMismatchAnswers, startService } from "@secondshift/service/testing";
import { describe, expect } from "vitest";

const main = resolve(dirname(fileURLToPath(import.meta.url)), "main.ts");
const start = (env: Record<string, string | undefined>) => startService(main, env);

const baseEnv = (databaseUrl: string | undefined, key: string, port: number) => ({
  DATABASE_URL: databaseUrl,
  REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
  SECONDSHIFT_PUBLIC_URL: "http://127.0.0.1",
  SECONDSHIFT_ENCRYPTION_KEY: key,
  PORT: String(port),
});

describe("web service startup", () => {
  test("a missing variable stops it with a message naming the variable", async () => {
    const run = start(baseEnv(undefined, randomBytes(32).toString("base64"), 1));
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("DATABASE_URL: is missing");
  });

  test("[P07] serves health and readiness with the right key; with the wrong one it is not ready, naming the key id", async ({
    testDatabase,
  }) => {
    const key = randomBytes(32).toString("base64");
    const port = await freePort();
    const first = start(baseEnv(testDatabase.url, key, port));
    let health: Response | undefined;
    // Up to a minute: on a loaded 2-core machine tsx compiling the web app takes a while.
    for (let i = 0; i < 600 && !health; i++) {
      health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      if (!health) await new Promise((r) => setTimeout(r, 100));
    }
    expect(health?.status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: "ready",
      checks: [
        { name: "database", ok: true },
        { name: "migrations", ok: true },
        { name: "redis", ok: true },
        { name: "key", ok: true },
      ],
    });
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    const wrongKey = randomBytes(32).toString("base64");
    const wrongPort = await freePort();
    const second = start(baseEnv(testDatabase.url, wrongKey, wrongPort));
    const answers = await keyMismatchAnswers(wrongPort, second);
    const neededId = keyIdOf(Buffer.from(key, "base64"));
    expect(answers.healthzStatus).toBe(200);
    expect(answers.readyzStatus).toBe(503);
    const [check, ...others] = answers.readyzBody.checks;
    expect([check?.name, check?.ok, others]).toEqual(["key", false, []]);
    expect(check?.message).toContain(`encrypted with key ${neededId}`);
    // Nothing but health is served: no API, no setup.
    expect((await fetch(`http://127.0.0.1:${wrongPort}/api/trpc/health`)).status).toBe(404);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
    expect(second.output()).not.toContain(wrongKey);
    expect(second.output()).not.toContain(key);
  }, 180_000);
});

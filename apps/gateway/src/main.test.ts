// The service entry: configuration errors and a wrong encryption key stop it before it serves
// (P07); with the right key it serves health and the model routes, and exits cleanly on SIGTERM.
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, type TestDatabase } from "@secondshift/db/testing";
import { freePort, startService } from "@secondshift/service/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const main = resolve(dirname(fileURLToPath(import.meta.url)), "main.ts");
let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.drop());

const start = (env: Record<string, string | undefined>) => startService(main, env);

const baseEnv = (key: string, port: number) => ({
  DATABASE_URL: t.url,
  SECONDSHIFT_ENCRYPTION_KEY: key,
  PORT: String(port),
  SECONDSHIFT_ENV: "development",
});

describe("gateway service startup", () => {
  it("a missing variable stops it with a message naming the variable", async () => {
    const run = start({
      ...baseEnv(randomBytes(32).toString("base64"), 1),
      DATABASE_URL: undefined,
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("DATABASE_URL");
  });

  it("[P07] serves health and refuses unauthenticated model calls with the right key; refuses to start with the wrong one", async () => {
    const key = randomBytes(32).toString("base64");
    const port = await freePort();
    const first = start(baseEnv(key, port));
    let health: Response | undefined;
    for (let i = 0; i < 150 && !health; i++) {
      health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
      if (!health) await new Promise((r) => setTimeout(r, 100));
    }
    expect(health?.status).toBe(200);
    const refused = await fetch(`http://127.0.0.1:${port}/v1/messages`, {
      method: "POST",
      body: "{}",
    });
    expect(refused.status).toBe(401);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    const wrong = start(baseEnv(randomBytes(32).toString("base64"), port));
    expect(await wrong.exited).not.toBe(0);
    expect(wrong.output()).toMatch(/key/i);
    expect(wrong.output()).not.toContain(key);
  });
});

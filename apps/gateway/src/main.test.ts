// The service entry: configuration errors stop it; a wrong encryption key leaves it serving only
// /healthz and a not-ready /readyz naming the key id the data needs (P07); with the right key it
// serves health, readiness and the model routes, and exits cleanly on SIGTERM.
import { randomBytes } from "node:crypto";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { keyIdOf } from "@secondshift/crypto";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import {
  freePort,
  keyMismatchAnswers,
  seriesValue,
  startService,
} from "@secondshift/service/testing";
import { describe, expect } from "vitest";

const main = resolve(dirname(fileURLToPath(import.meta.url)), "main.ts");
const start = (env: Record<string, string | undefined>) => startService(main, env);

const baseEnv = (
  databaseUrl: string | undefined,
  key: string,
  port: number,
  metricsPort?: number,
) => ({
  METRICS_PORT: metricsPort === undefined ? undefined : String(metricsPort),
  DATABASE_URL: databaseUrl,
  SECONDSHIFT_ENCRYPTION_KEY: key,
  PORT: String(port),
  SECONDSHIFT_ENV: "development",
});

describe("gateway service startup", () => {
  test("a missing variable stops it with a message naming the variable", async () => {
    const run = start(baseEnv(undefined, randomBytes(32).toString("base64"), 1));
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("DATABASE_URL");
  });

  test("[P07] serves health, readiness and refuses unauthenticated model calls with the right key; with the wrong one it is not ready, naming the key id", async ({
    testDatabase,
  }) => {
    const key = randomBytes(32).toString("base64");
    const port = await freePort();
    const metricsPort = await freePort();
    const first = start(baseEnv(testDatabase.url, key, port, metricsPort));
    let health: Response | undefined;
    for (let i = 0; i < 150 && !health; i++) {
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
        { name: "key", ok: true },
      ],
    });
    const refused = await fetch(`http://127.0.0.1:${port}/v1/messages`, {
      method: "POST",
      body: "{}",
    });
    expect(refused.status).toBe(401);
    // The refusal is on the metrics port, not on the service's own.
    const scraped = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const refusedSeries = { provider: "none", model: "other", outcome: "refused" };
    const name = "secondshift_gateway_request_seconds_count";
    expect(seriesValue(scraped, name, { ...refusedSeries, service: "gateway" })).toBe(1);
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
    first.child.kill("SIGTERM");
    expect(await first.exited).toBe(0);

    const wrongKey = randomBytes(32).toString("base64");
    const wrong = start(baseEnv(testDatabase.url, wrongKey, port));
    const answers = await keyMismatchAnswers(port, wrong);
    const neededId = keyIdOf(Buffer.from(key, "base64"));
    expect(answers.healthzStatus).toBe(200);
    expect(answers.readyzStatus).toBe(503);
    const [check, ...others] = answers.readyzBody.checks;
    expect([check?.name, check?.ok, others]).toEqual(["key", false, []]);
    expect(check?.message).toContain(`encrypted with key ${neededId}`);
    // Nothing but health is served: the model routes are not there.
    const model = await fetch(`http://127.0.0.1:${port}/v1/messages`, {
      method: "POST",
      body: "{}",
    });
    expect(model.status).toBe(404);
    wrong.child.kill("SIGTERM");
    expect(await wrong.exited).toBe(0);
    expect(wrong.output()).not.toContain(key);
    expect(wrong.output()).not.toContain(wrongKey);
    // Two service starts (each compiles main.ts with tsx) and the file's database, created for
    // this test: can take more than the default 30 s on a loaded machine.
  }, 90_000);
});

import { afterAll, describe, expect, it } from "vitest";
import { startHealthServer, type HealthServer } from "./health-server.ts";
import { createReadiness, type ReadinessCheck } from "./readiness.ts";

const passes = (name: string): ReadinessCheck => ({
  name,
  check: () => Promise.resolve(`${name} fine`),
});
const servers: HealthServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe("readiness", () => {
  it("names each failure: a thrown cause, or a check that does not answer in time", async () => {
    const readiness = createReadiness(
      [
        passes("database"),
        {
          name: "redis",
          check: () => Promise.reject(new Error("Redis does not answer: ECONNREFUSED")),
        },
        { name: "docker", check: () => new Promise<string>(() => undefined) },
      ],
      { timeoutMs: 50 },
    );
    const started = Date.now();
    expect(await readiness.report()).toEqual({
      status: "not ready",
      checks: [
        { name: "database", ok: true, message: "database fine" },
        { name: "redis", ok: false, message: "Redis does not answer: ECONNREFUSED" },
        { name: "docker", ok: false, message: "no answer within 50 ms" },
      ],
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("serves /healthz (alive) and /readyz (200 ready, 503 not ready) over HTTP", async () => {
    let up = true;
    const server = await startHealthServer(
      0,
      createReadiness([
        {
          name: "database",
          check: () =>
            up
              ? Promise.resolve("PostgreSQL answers")
              : Promise.reject(new Error("PostgreSQL does not answer")),
        },
      ]),
    );
    servers.push(server);
    const base = `http://127.0.0.1:${server.port}`;
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([
      200,
      { status: "ready", checks: [{ name: "database", ok: true, message: "PostgreSQL answers" }] },
    ]);
    up = false;
    const notReady = await fetch(`${base}/readyz`);
    expect(notReady.status).toBe(503);
    expect(await notReady.json()).toMatchObject({ status: "not ready", checks: [{ ok: false }] });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/other`)).status).toBe(404);
  });
});

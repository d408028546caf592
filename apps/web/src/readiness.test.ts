// The web app's /readyz against a PostgreSQL cluster and a Redis of the test's own, each stopped
// and started again (the shared test PostgreSQL is never touched).
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations } from "@secondshift/db";
import {
  freePort,
  ownPostgres,
  ownRedis,
  startService,
  waitForReadyz,
  type OwnService,
} from "@secondshift/service/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const main = resolve(dirname(fileURLToPath(import.meta.url)), "main.ts");
let dir: string;
let postgres: OwnService;
let redis: OwnService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "web-readiness-"));
  await chmod(dir, 0o755); // PostgreSQL runs as its own user, inside this folder
  postgres = await ownPostgres(join(dir, "pg"));
  redis = await ownRedis(join(dir, "redis"));
  await applyMigrations({ databaseUrl: postgres.url });
}, 120_000);
afterAll(async () => {
  await redis?.stop();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("web /readyz", () => {
  it("is not ready, naming the cause, while PostgreSQL or Redis is stopped, and ready again when each is back", async () => {
    const port = await freePort();
    const web = startService(main, {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      SECONDSHIFT_PUBLIC_URL: "http://127.0.0.1",
      SECONDSHIFT_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      PORT: String(port),
    });
    try {
      const ready = await waitForReadyz(port, 200);
      expect(ready.code, web.output()).toBe(200);
      const outages: Array<[OwnService, string[], RegExp]> = [
        [postgres, ["database", "migrations"], /PostgreSQL does not answer/],
        [redis, ["redis"], /Redis does not answer|no answer within/],
      ];
      for (const [service, names, message] of outages) {
        await service.stop();
        const down = await waitForReadyz(port, 503);
        expect(down.code).toBe(503);
        const failed = down.report?.checks.filter((c) => !c.ok) ?? [];
        expect(failed.map((c) => c.name)).toEqual(names);
        expect(failed[0]?.message).toMatch(message);
        await service.start();
        expect((await waitForReadyz(port, 200)).code).toBe(200);
      }
    } finally {
      web.child.kill("SIGTERM");
      expect(await web.exited, web.output().slice(-2000)).toBe(0);
    }
  }, 240_000);
});

// The gateway's /readyz against a PostgreSQL cluster of the test's own, stopped and started
// again (the shared test PostgreSQL is never touched).
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations } from "@secondshift/db";
import {
  failedChecks,
  freePort,
  ownPostgres,
  startService,
  waitForReadyz,
  type OwnService,
} from "@secondshift/service/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const main = resolve(dirname(fileURLToPath(import.meta.url)), "main.ts");
let dir: string;
let postgres: OwnService;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "gateway-readiness-"));
  await chmod(dir, 0o755); // PostgreSQL runs as its own user, inside this folder
  postgres = await ownPostgres(join(dir, "pg"));
  await applyMigrations({ databaseUrl: postgres.url });
}, 120_000);
afterAll(async () => {
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("gateway /readyz", () => {
  it("is not ready, naming the database, while PostgreSQL is stopped, and ready again when it is back", async () => {
    const port = await freePort();
    const gateway = startService(main, {
      DATABASE_URL: postgres.url,
      SECONDSHIFT_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      PORT: String(port),
      SECONDSHIFT_ENV: "development",
    });
    try {
      const ready = await waitForReadyz(port, 200);
      expect(ready.code, gateway.output()).toBe(200);
      await postgres.stop();
      const down = await waitForReadyz(port, 503);
      expect(down.code).toBe(503);
      expect(failedChecks(down.report)).toEqual(["database", "migrations"]);
      expect(down.report?.checks[0]?.message).toMatch(/PostgreSQL does not answer/);
      await postgres.start();
      expect((await waitForReadyz(port, 200)).code).toBe(200);
    } finally {
      gateway.child.kill("SIGTERM");
      expect(await gateway.exited, gateway.output().slice(-2000)).toBe(0);
    }
  }, 180_000);
});

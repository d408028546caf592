// The worker's /readyz against dependencies of the test's own: a PostgreSQL cluster and a Redis
// it stops and starts, and the Docker engine behind a proxy socket it closes, or that hides runsc
// from the engine's /info (C13). The shared test PostgreSQL and Docker engine are never touched.
import { randomBytes } from "node:crypto";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { applyMigrations, createDatabase, type Database } from "@secondshift/db";
import { seedRun, seedWorkspace } from "@secondshift/db/testing";
import { LABELS } from "@secondshift/sandbox";
import { addRunToQueue, createRunQueue } from "@secondshift/scheduler";
import {
  dockerProxy,
  failedChecks,
  freePort,
  ownPostgres,
  ownRedis,
  seriesValue,
  startService,
  waitForReadyz,
  type DockerProxy,
  type OwnService,
  type StartedService,
} from "@secondshift/service/testing";
import Docker from "dockerode";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const main = resolve(dirname(fileURLToPath(import.meta.url)), "main.ts");
const key = randomBytes(32).toString("base64");
let dir: string;
let postgres: OwnService;
let redis: OwnService;
let database: Database;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "worker-readiness-"));
  await chmod(dir, 0o755); // PostgreSQL runs as its own user, inside this folder
  postgres = await ownPostgres(join(dir, "pg"));
  redis = await ownRedis(join(dir, "redis"));
  await applyMigrations({ databaseUrl: postgres.url });
  database = createDatabase(postgres.url, { maxConnections: 2 });
  database.pool.on("error", () => undefined); // the test stops the server under it
}, 120_000);

afterAll(async () => {
  await database?.close();
  await redis?.stop();
  await postgres?.stop();
  await rm(dir, { recursive: true, force: true });
});

function startWorker(port: number, docker: DockerProxy, metricsPort?: number): StartedService {
  return startService(main, {
    METRICS_PORT: metricsPort === undefined ? undefined : String(metricsPort),
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    DOCKER_HOST: docker.dockerHost,
    PORT: String(port),
    SECONDSHIFT_ENCRYPTION_KEY: key,
    SECONDSHIFT_PUBLIC_URL: "http://127.0.0.1:3000",
    SECONDSHIFT_GATEWAY_URL: "http://127.0.0.1:4000",
    SANDBOX_IMAGE: process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test",
    LOG_LEVEL: "info",
  });
}

async function stopWorker(worker: StartedService) {
  worker.child.kill("SIGTERM");
  expect(await worker.exited, worker.output().slice(-3000)).toBe(0);
}

describe("worker /readyz", () => {
  it("is not ready, naming the cause, while PostgreSQL, Redis or Docker is stopped, and ready again when each is back", async () => {
    const docker = await dockerProxy(join(dir, "docker.sock"));
    const port = await freePort();
    const worker = startWorker(port, docker);
    try {
      const ready = await waitForReadyz(port, 200, { service: worker });
      expect(ready.code, JSON.stringify(ready.report)).toBe(200);
      expect(ready.report?.status).toBe("ready");
      expect(ready.report?.checks.map((c) => c.name)).toEqual([
        "database",
        "migrations",
        "redis",
        "key",
        "docker",
        "runtime",
        "sandbox image",
      ]);

      const outages: Array<[OwnService | DockerProxy, string, RegExp]> = [
        [postgres, "database", /PostgreSQL does not answer/],
        [redis, "redis", /Redis does not answer|no answer within/],
        [docker, "docker", /Docker engine does not answer/],
      ];
      for (const [service, check, message] of outages) {
        await service.stop();
        const down = await waitForReadyz(
          port,
          ({ code, report }) => code === 503 && failedChecks(report).includes(check),
          { service: worker },
        );
        expect(down.code, `${check}: ${JSON.stringify(down.report)}`).toBe(503);
        expect(down.report?.status).toBe("not ready");
        expect(down.report?.checks.find((c) => c.name === check)?.message).toMatch(message);
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
        await service.start();
        const back = await waitForReadyz(port, 200, { service: worker });
        expect(back.code, `${check} back: ${JSON.stringify(back.report)}`).toBe(200);
      }
    } finally {
      await stopWorker(worker);
      await docker.stop();
    }
  }, 300_000);

  it("[C13] a worker whose engine has no runsc is not ready and claims no run; it claims once runsc is there", async () => {
    const docker = await dockerProxy(join(dir, "docker-no-runsc.sock"));
    docker.hideRuntime = "runsc";
    const port = await freePort();
    const metricsPort = await freePort();
    const queue = createRunQueue({ connection: { url: redis.url, maxRetriesPerRequest: null } });
    const engine = new Docker({ socketPath: "/var/run/docker.sock" });
    const worker = startWorker(port, docker, metricsPort);
    let runId = "";
    try {
      const down = await waitForReadyz(port, 503, { service: worker });
      expect(failedChecks(down.report)).toEqual(["runtime"]);
      expect(down.report?.checks.find((c) => c.name === "runtime")?.message).toMatch(
        /no runtime named runsc/,
      );

      const seed = await seedWorkspace(database.db);
      const run = await seedRun(database.db, seed, { status: "QUEUED" });
      runId = run.id;
      await addRunToQueue(queue, { runId: run.id, workspaceId: run.workspaceId });
      const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const onWorker = { service: "worker" };
      const jobs = { ...onWorker, queue: "runs", state: "waiting" };
      const wait = { ...onWorker, queue: "runs" };
      // The gate re-checks readiness every 5 s and says nothing while it stays shut, so this
      // waits on the clock: until the worker's own gauge shows the run waiting longer than a
      // re-check and a queue poll (7 s), when a claiming worker would have taken it (or until
      // it is no longer waiting, which the checks below report).
      await vi.waitUntil(
        async () => {
          const scraped = await scrape();
          const waited = seriesValue(scraped, "secondshift_queue_oldest_wait_seconds", wait);
          return (waited ?? 0) >= 7 || seriesValue(scraped, "secondshift_queue_jobs", jobs) !== 1;
        },
        { timeout: 60_000, interval: 500 },
      );
      const stored = await database.db.run.findUniqueOrThrow({ where: { id: run.id } });
      expect(stored.status).toBe("QUEUED");
      expect(await (await queue.getJob(run.id))?.getState()).toBe("waiting");
      const sandboxes = await engine.listContainers({
        all: true,
        filters: { label: [`${LABELS.runId}=${run.id}`] },
      });
      expect(sandboxes).toEqual([]);
      // The worker's metrics endpoint shows the run waiting, in the database and on the queue.
      const scraped = await scrape();
      expect(seriesValue(scraped, "secondshift_runs", { ...onWorker, status: "QUEUED" })).toBe(1);
      expect(seriesValue(scraped, "secondshift_queue_jobs", jobs)).toBe(1);
      expect(
        seriesValue(scraped, "secondshift_queue_oldest_wait_seconds", wait),
      ).toBeGreaterThanOrEqual(7);

      // The same worker, once the engine shows runsc: ready, and the run is taken.
      docker.hideRuntime = undefined;
      expect((await waitForReadyz(port, 200, { service: worker })).code).toBe(200);
      await vi.waitFor(
        async () => {
          const { status } = await database.db.run.findUniqueOrThrow({ where: { id: run.id } });
          expect(status).not.toBe("QUEUED");
        },
        { timeout: 30_000, interval: 250 },
      );
    } finally {
      await stopWorker(worker);
      await docker.stop();
      await queue.close();
      const left = runId
        ? await engine.listContainers({
            all: true,
            filters: { label: [`${LABELS.runId}=${runId}`] },
          })
        : [];
      for (const c of left) await engine.getContainer(c.Id).remove({ force: true });
    }
  }, 300_000);
});

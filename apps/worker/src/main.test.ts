// The worker entry: configuration errors stop it; a wrong encryption key leaves it up but not
// ready, naming the key id the data needs, with no processor started (P07); with the right key
// it starts and exits cleanly on SIGTERM. A worker killed mid-work leaves files in its work
// folder; the next start empties it before recovery.
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { keyIdOf } from "@secondshift/crypto";
import { seedRun, seedWorkspace } from "@secondshift/db/testing";
import { dbTest as test } from "@secondshift/db/testing/vitest";
import {
  freePort,
  keyMismatchAnswers,
  startService,
  type StartedService,
} from "@secondshift/service/testing";
import { describe, expect } from "vitest";

const main = resolve(dirname(fileURLToPath(import.meta.url)), "main.ts");
// The key of the file's database: the first worker started with it writes the key check, and
// the later ones (another test's included) must find the same key there.
const key = randomBytes(32).toString("base64");

const baseEnv = (databaseUrl: string, encryptionKey: string) => ({
  DATABASE_URL: databaseUrl,
  REDIS_URL: process.env.TEST_REDIS_URL,
  SECONDSHIFT_ENCRYPTION_KEY: encryptionKey,
  SECONDSHIFT_PUBLIC_URL: "http://127.0.0.1:3000",
  SECONDSHIFT_GATEWAY_URL: "http://127.0.0.1:4000",
  SANDBOX_IMAGE: process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test",
  LOG_LEVEL: "info",
});

/** Waits until the worker logged "worker started" (or ended); a minute on a loaded machine. */
async function started(service: StartedService): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (
    !service.output().includes("worker started") &&
    service.child.exitCode === null &&
    Date.now() < deadline
  ) {
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(service.output(), service.output().slice(-3000)).toContain("worker started");
}

describe("worker service startup", () => {
  test("a missing variable stops it with a message naming the variable", async ({
    testDatabase,
  }) => {
    const run = startService(main, {
      ...baseEnv(testDatabase.url, randomBytes(32).toString("base64")),
      SECONDSHIFT_GATEWAY_URL: undefined,
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("SECONDSHIFT_GATEWAY_URL: is missing");
  });

  test("refuses a work folder that is not its own (it would be emptied)", async ({
    testDatabase,
  }) => {
    // More shapes in packages/config's tests; here: the process stops before touching it.
    const run = startService(main, {
      ...baseEnv(testDatabase.url, randomBytes(32).toString("base64")),
      WORKER_WORK_DIR: tmpdir(),
    });
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain("WORKER_WORK_DIR: must not be");
  });

  test("an engine it must not or cannot reach safely stops it, saying what to set: plain tcp:// in production, a missing TLS file", async ({
    testDatabase,
  }) => {
    // The file's key: these stop after the key check, which another test may have written.
    const [plain, missing] = [
      { DOCKER_HOST: "tcp://127.0.0.1:2375" },
      {
        DOCKER_HOST: "tcp://127.0.0.1:2376",
        DOCKER_TLS_VERIFY: "1",
        DOCKER_CERT_PATH: "/nonexistent",
      },
    ].map((docker) => startService(main, { ...baseEnv(testDatabase.url, key), ...docker }));
    expect(await plain!.exited).toBe(1);
    expect(plain!.output()).toContain("production refuses it");
    expect(plain!.output()).toContain("DOCKER_TLS_VERIFY=1");
    expect(await missing!.exited).toBe(1);
    expect(missing!.output()).toContain("/nonexistent/ca.pem (the CA certificate");
  });

  test("a worker killed with SIGKILL leaves files in its work folder; the next start empties it before lost-run recovery", async ({
    db,
    testDatabase,
  }) => {
    const workDir = join(await mkdtemp(join(tmpdir(), "secondshift-worker-test-")), "work");
    const env = {
      ...baseEnv(testDatabase.url, key),
      WORKER_WORK_DIR: workDir,
      PORT: String(await freePort()),
    };
    const first = startService(main, env);
    await started(first);
    expect(await readdir(workDir)).toEqual([]);
    // What a sync and a run's checkout that were under way look like when the process dies.
    await mkdir(join(workDir, "sync-k1Ll3d/repo/.git/objects/pack"), { recursive: true });
    await writeFile(
      join(workDir, "sync-k1Ll3d/repo/.git/objects/pack/pack-1.pack"),
      "x".repeat(4096),
    );
    await mkdir(join(workDir, "git-home-Xy12ab"));
    await mkdir(join(workDir, "tree-9z8y7x/src"), { recursive: true });
    await writeFile(join(workDir, "tree-9z8y7x/src/app.ts"), "leftover\n");
    first.child.kill("SIGKILL");
    await first.exited;
    // The killed worker's run: recovery fails it on the next start.
    const seed = await seedWorkspace(db);
    const lost = await seedRun(db, seed, { status: "RUNNING", workerId: "worker-killed" });
    await db.run.update({
      where: { id: lost.id },
      data: { heartbeatAt: new Date(Date.now() - 10 * 60_000) },
    });

    const second = startService(main, env);
    await started(second);
    const output = second.output();
    expect(await readdir(workDir)).toEqual([]);
    const emptied = output.indexOf("work folder emptied");
    const recovered = output.indexOf("run marked failed: worker lost");
    expect(emptied).toBeGreaterThan(-1);
    expect(recovered, output.slice(-3000)).toBeGreaterThan(emptied);
    expect(output).toMatch(/"removed":3\b/);
    expect((await db.run.findUniqueOrThrow({ where: { id: lost.id } })).status).toBe("FAILED");
    second.child.kill("SIGTERM");
    expect(await second.exited, second.output().slice(-3000)).toBe(0);
  }, 180_000);

  test("[P07][C13] starts with the right key; with the wrong one it starts nothing and is not ready, naming the key id", async ({
    testDatabase,
  }) => {
    const first = startService(main, {
      ...baseEnv(testDatabase.url, key),
      PORT: String(await freePort()),
    });
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
    const second = startService(main, {
      ...baseEnv(testDatabase.url, wrongKey),
      PORT: String(port),
    });
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
    const runc = startService(main, {
      ...baseEnv(testDatabase.url, key),
      SANDBOX_RUNTIME: "runc",
    });
    expect(await runc.exited).toBe(1);
    expect(runc.output()).toContain("SANDBOX_RUNTIME");
    // Three service starts, each waited for up to 60 s above: the default 30 s is too short on a
    // loaded machine (seen at 38 s with a load average of 36).
  }, 180_000);
});

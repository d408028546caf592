// Smoke test of the real deployment: the operator's own scripts build every image air-gapped
// (Debian packages + the npm registry only), bring the compose stack up, complete the first-run
// setup through the link the web service prints, drive jobs end to end through the owner API on
// two workers and two gateways, stop the stack and upgrade it in place (every container
// recreated), back it up and restore the backup into a fresh stack that decrypts with the key.
// Two stacks (A, B) on loopback ports of the host network; both are removed at the end.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { journeySettings, ownerJourney, waitFor, type Journey } from "./testing/journey.ts";
import { ownerBrowser, setupTokenIn } from "./testing/owner.ts";
import { startSandboxHost, type SandboxHost } from "./testing/sandbox-host.ts";
import { appTag, freePorts, repoRoot, run, Stack } from "./testing/stack.ts";

const image = `secondshift-app:${appTag}`;
const suffix = randomBytes(3).toString("hex");
let workDir: string;
let a: Stack;
let b: Stack;
let journey: Journey | undefined;
let sandboxHost: SandboxHost | undefined;
const owner = {
  email: "owner@example.test",
  name: "Olga Owner",
  password: `smoke-${randomBytes(12).toString("hex")}`,
  workspaceName: "Acme",
};

function settingOf(envText: string, key: string): string {
  const line = envText.split("\n").findLast((l) => l.startsWith(`${key}=`));
  if (!line) throw new Error(`${key} is not set`);
  return line.slice(key.length + 1);
}

/** The settings text with each key set to the given value (replaced in place, else appended). */
function withSettings(envText: string, values: Record<string, string>): string {
  const lines = envText
    .split("\n")
    .filter((l) => !Object.keys(values).some((k) => l.startsWith(`${k}=`)));
  return [...lines, ...Object.entries(values).map(([k, v]) => `${k}=${v}`), ""].join("\n");
}

/**
 * The stack's durable state: the key check row, the migrations, a Redis value (AOF), the runs,
 * and each schedule's next fire time in the scheduler queue (BullMQ's job schedulers, in Redis).
 */
async function snapshot(stack: Stack) {
  return {
    keyChecks: await stack.sql(`SELECT "keyId" || ' ' || "createdAt" FROM "EncryptionKeyCheck"`),
    migrations: await stack.sql(`SELECT count(*) FROM _prisma_migrations`),
    marker: await stack.redis(["GET", "smoke:marker"]),
    runs: await stack.sql(
      `SELECT string_agg("id" || ' ' || "status", ',' ORDER BY "id") FROM "Run"`,
    ),
    schedules: await stack.redis([
      "ZRANGE",
      "bull:secondshift-schedule:repeat",
      "0",
      "-1",
      "WITHSCORES",
    ]),
  };
}

/** How many claims of the run a worker's log (JSON lines) records ("run started" by its queue). */
function startsIn(log: string, runId: string): number {
  return log
    .split("\n")
    .filter(
      (l) =>
        l.includes('"msg":"run started"') &&
        l.includes(`"runId":"${runId}"`) &&
        l.includes('"workerId":'),
    ).length;
}

/** The run ids of the sandboxes an engine (a docker CLI) created since `since` (unix seconds). */
async function sandboxesCreated(
  docker: (args: string[]) => Promise<{ code: number | null; output: string }>,
  since: string,
): Promise<string[]> {
  const events = await docker([
    "events",
    "--since",
    since,
    "--until",
    String(Math.ceil(Date.now() / 1000)),
    "--filter",
    "event=create",
    "--filter",
    "label=secondshift.managed=true",
    "--format",
    '{{index .Actor.Attributes "secondshift.run-id"}}',
  ]);
  expect(events.code, events.output).toBe(0);
  return events.output.split("\n").filter(Boolean);
}

/** A fresh browser signs the owner in; what `auth.me` then says. */
async function signIn(stack: Stack) {
  const browser = ownerBrowser(stack.webUrl);
  await browser.trpc.auth.signIn.mutate({ email: owner.email, password: owner.password });
  return browser.trpc.auth.me.query();
}

/** `docker run` arguments for one service of the app image outside compose, on the host network. */
async function serviceArgs(stack: Stack, service: string, env: Record<string, string>) {
  const envFile = join(workDir, `${service}-override.env`);
  await writeFile(envFile, withSettings(await readFile(stack.envFile, "utf8"), env), {
    mode: 0o600,
  });
  return ["--network", "host", "--env-file", envFile, image, "node", `dist/${service}.mjs`];
}

/** Runs one service of the app image until it ends; how it ended. */
async function runService(stack: Stack, service: string, env: Record<string, string>) {
  const args = await serviceArgs(stack, service, env);
  return run("timeout", ["120", "docker", "run", "--rm", ...args]);
}

/** Polls a service's /readyz on the host until it answers 503; that answer (0: none in time). */
async function notReadyAnswer(port: number): Promise<{ code: number; body: string }> {
  for (let i = 0; i < 600; i++) {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
    if (res?.status === 503) return { code: 503, body: await res.text() };
    await new Promise((r) => setTimeout(r, 200));
  }
  return { code: 0, body: "" };
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "secondshift-smoke-"));
  const [p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14] = await freePorts(14);
  a = new Stack(`ss-smoke-a-${suffix}`, workDir, {
    postgres: p1!,
    redis: p2!,
    web: p3!,
    gateway: p4!,
    gateway2: p5!,
    worker: p6!,
    worker2: p7!,
  });
  b = new Stack(`ss-smoke-b-${suffix}`, workDir, {
    postgres: p8!,
    redis: p9!,
    web: p10!,
    gateway: p11!,
    gateway2: p12!,
    worker: p13!,
    worker2: p14!,
  });
});

afterAll(async () => {
  await journey?.close();
  for (const stack of [a, b]) {
    const down = await stack?.down();
    if (down && down.code !== 0) console.error(`compose down ${stack.project}: ${down.output}`);
  }
  await sandboxHost?.stop();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe("deployment smoke test (air-gapped images, compose, backup and restore)", () => {
  it("host set-up finds nothing to change on a prepared machine", async () => {
    const dry = await a.script("host-setup.sh", ["--dry-run"]);
    expect(dry.code, dry.output).toBe(0);
    expect(dry.output).toContain("nothing to change");
  });

  it("one command builds every image air-gapped, writes the settings and starts a healthy stack", async () => {
    const up = await a.script("up.sh", ["--airgapped", "--skip-host-setup", "--no-install"]);
    expect(up.code, up.output.slice(-4000)).toBe(0);
    expect(up.output).toContain(`SecondShift is running: http://127.0.0.1:${a.ports.web}`);
    for (const line of ["ready: migrate", "ready: postgres", "ready: redis", "ready: worker"])
      expect(up.output).toContain(line);
    expect(up.output).toContain(
      `First-run setup (one time, keep it private): ${a.webUrl}/setup?token=`,
    );
    // Progress: each step with the time since the start, a summary; no notices that are not
    // the operator's to act on (the legacy builder's, Turborepo's telemetry).
    expect(up.output).toMatch(/== \[\d+:\d\d\] images \(airgapped\)/);
    expect(up.output).toMatch(/== done in \d+:\d\d/);
    expect(up.output).not.toMatch(/DEPRECATED: The legacy builder|telemetry/i);

    const settings = await readFile(a.envFile, "utf8");
    expect((await stat(a.envFile)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(settingOf(settings, "SECONDSHIFT_ENCRYPTION_KEY"), "base64")).toHaveLength(
      32,
    );
    expect(settingOf(settings, "POSTGRES_PASSWORD").length).toBeGreaterThanOrEqual(24);
    expect(await a.health("web")).toBe(200);
    expect(await a.health("gateway")).toBe(200);
  });

  it("completes the first-run setup through the link the web service prints, once", async () => {
    const token = setupTokenIn(await a.logs("web"));
    expect(token).toBeDefined();
    const setup = { ...owner, setupToken: token };
    await expect(
      ownerBrowser(a.webUrl).trpc.auth.setup.mutate({ ...setup, setupToken: "not-the-token" }),
    ).rejects.toThrow();

    const created = await ownerBrowser(a.webUrl).trpc.auth.setup.mutate(setup);
    // The link is one-time: with an account in place, setup is closed even with the token.
    await expect(ownerBrowser(a.webUrl).trpc.auth.setup.mutate(setup)).rejects.toThrow();

    const me = await signIn(a);
    expect(me).toMatchObject({
      id: created.userId,
      email: owner.email,
      workspaces: [{ id: created.workspaceId, name: owner.workspaceName, role: "OWNER" }],
    });
  });

  it("host set-up on a machine where no engine runs starts dockerd itself, registers gVisor in its configuration, and says a reboot will not restart it", async () => {
    // The sandbox host of the next test: its engine is started by scripts/host-setup.sh.
    sandboxHost = await startSandboxHost(
      await mkdtemp(join(tmpdir(), "ss-sbx-")),
      process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:latest",
    );
    const output = sandboxHost.hostSetupOutput;
    expect(output).toContain("changing: start the Docker engine");
    expect(output).toContain("starting dockerd directly with --config-file");
    expect(output).toContain("It will NOT come back after a reboot");
    expect(output).toContain("changing: register gVisor (runsc --network=none --oci-seccomp)");
    const runtimes = await sandboxHost.docker(["info", "--format", "{{json .Runtimes.runsc}}"]);
    expect(runtimes.output).toContain('"--network=none","--oci-seccomp"');
  });

  it("[P04] drives jobs end to end through the owner API on two workers and two gateways, the second worker's sandboxes on a sandbox host over mutual TLS: every run executes exactly once, no secret in a log", async () => {
    // Test-only settings: loopback fakes over http (development mode, 127.0.0.1 allowed by the
    // operator's private-address allowance), one run per worker at a time so both take part.
    const settings = await readFile(a.envFile, "utf8");
    await writeFile(a.envFile, withSettings(settings, journeySettings()));
    const since = String(Math.floor(Date.now() / 1000));
    expect(sandboxHost, "the sandbox host of the test before").toBeDefined();
    if (!sandboxHost) return;
    a.extraEnv = {
      SMOKE_SANDBOX_HOST_PORT: String(sandboxHost.port),
      SMOKE_SANDBOX_HOST_CERTS: sandboxHost.certDir,
    };
    a.extraComposeFiles.push(join(repoRoot, "docker/compose.hostnet-scale.yaml"));
    const up = await a.compose(["up", "-d"]);
    expect(up.code, up.output).toBe(0);
    const services = ["migrate", "postgres", "redis", "gateway", "gateway-2", "web", "worker"];
    const ready = await a.script("wait-healthy.sh", [...services, "worker-2"]);
    expect(ready.code, ready.output).toBe(0);
    expect(await a.health("gateway2")).toBe(200);

    const browser = ownerBrowser(a.webUrl);
    await browser.trpc.auth.signIn.mutate({ email: owner.email, password: owner.password });
    journey = await ownerJourney(browser, {
      // Through the owner API: the web process discovers over its own netguard client.
      discover: async ({ workspaceId, connectionId }) =>
        (await browser.trpc.connections.discover.mutate({ workspaceId, connectionId })).tools.map(
          (t) => t.name,
        ),
    });
    const result = await journey.runRounds(2);
    expect(result.runs).toHaveLength(4);
    for (const run of result.runs) {
      expect(run.status, run.error ?? "").toBe("SUCCEEDED");
      expect(run.summary).toContain("hello from the smoke test");
    }
    const runIds = result.runs.map((r) => r.id).sort();

    // Exactly once: each run was claimed once (one RUNNING status event, one start, one end),
    // two model requests per run reached the provider, and one report per run was delivered.
    const events = await a.sql(
      `SELECT string_agg(counts, ',' ORDER BY counts) FROM (SELECT "runId" || ' ' ||
         count(*) FILTER (WHERE type = 'status' AND payload->>'status' = 'RUNNING') || ' ' ||
         count(*) FILTER (WHERE type = 'run_started') || ' ' ||
         count(*) FILTER (WHERE type = 'run_finished') AS counts FROM "RunEvent" GROUP BY "runId") c`,
    );
    expect(events.split(",")).toEqual(runIds.map((id) => `${id} 1 1 1`));
    expect(journey.modelRequests()).toBe(2 * runIds.length);
    const reported = await journey.waitForDeliveries(runIds.length);
    expect(reported.sort()).toEqual(runIds);

    // Both workers took part, each run in one worker's log only; each worker used its gateway.
    const workerLogs = [await a.logs("worker"), await a.logs("worker-2")];
    for (const id of runIds)
      expect(
        workerLogs.map((log) => startsIn(log, id)).reduce((x, y) => x + y),
        id,
      ).toBe(1);
    const started = workerLogs.map((log) => runIds.filter((id) => startsIn(log, id) > 0));
    expect(started.map((ids) => ids.length > 0)).toEqual([true, true]);
    const gatewayLogs = [await a.logs("gateway"), await a.logs("gateway-2")];
    for (const [i, ids] of started.entries())
      for (const id of ids) expect(gatewayLogs[i]).toContain(id);
    // The second worker's sandboxes were created on the sandbox host (over TLS), the first's on
    // this machine's engine, and neither engine saw the other's.
    const created = await Promise.all(
      [(args: string[]) => run("docker", args), sandboxHost.docker].map((docker) =>
        sandboxesCreated(docker, since),
      ),
    );
    expect(created[1]!.sort()).toEqual([...started[1]!].sort());
    for (const id of started[0]!) expect(created[0]).toContain(id);
    for (const id of started[1]!) expect(created[0]).not.toContain(id);

    // [P04] The secrets the owner handed over appear in no service's log and no report.
    const everything = [(await a.compose(["logs", "--no-color"])).output, ...journey.deliveries()];
    for (const secret of [...journey.planted, owner.password])
      for (const text of everything) expect(text).not.toContain(secret);

    // The approved jobs' schedules reach the scheduler queue (BullMQ job schedulers in Redis):
    // approving syncs them through the web process's queues (the workers also do every minute).
    const expected = result.jobIds.map((id) => `job-${id}`).sort();
    // Each probe is a `docker exec`: twice a second.
    await waitFor(
      "the approved jobs' schedules",
      async () => {
        const listed = await a.redis(["ZRANGE", "bull:secondshift-schedule:repeat", "0", "-1"]);
        return listed.split("\n").sort().join() === expected.join();
      },
      { intervalMs: 500 },
    );
  });

  it("the service image runs bundled JavaScript on Node 24, as a non-root user under tini, without dev tools", async () => {
    const inspect = await run("docker", [
      "image",
      "inspect",
      image,
      "--format",
      "{{.Config.User}} {{json .Config.Entrypoint}}",
    ]);
    expect(inspect.output.trim()).toBe('10000:10000 ["/usr/bin/tini","--"]');
    const probe = await run("docker", [
      "run",
      "--rm",
      "--network",
      "none",
      image,
      "node",
      "-e",
      `const tryImport = (m) => import(m).then(() => m, () => null);
       Promise.all(["tsx", "typescript", "vitest", "prisma", "esbuild"].map(tryImport)).then((found) =>
         console.log(JSON.stringify({ node: process.version, uid: process.getuid(),
           dev: found.filter(Boolean), dist: require("fs").readdirSync("dist").filter((f) => f.endsWith(".mjs")) })));`,
    ]);
    expect(probe.code, probe.output).toBe(0);
    const facts = JSON.parse(probe.output.trim().split("\n").at(-1)!) as Record<string, unknown>;
    expect(facts).toEqual({
      node: expect.stringMatching(/^v24\./) as unknown,
      uid: 10000,
      dev: [],
      dist: [
        "gateway.mjs",
        "migrate.mjs",
        "repo-config-parser.mjs",
        "rotate-keys.mjs",
        "web.mjs",
        "worker.mjs",
      ],
    });
  });

  it("ops.sh shows the stack, its logs, and applies an .env change by recreating the containers", async () => {
    const status = await a.script("ops.sh", ["status"]);
    expect(status.code, status.output).toBe(0);
    for (const service of ["web", "worker", "gateway", "postgres", "redis"])
      expect(status.output).toContain(service);
    const logs = await a.script("ops.sh", ["logs", "web"]);
    expect(logs.code, logs.output).toBe(0);
    expect(logs.output).toContain("web");

    const settings = await readFile(a.envFile, "utf8");
    const worker = await a.container("worker");
    await writeFile(a.envFile, `${settings.trimEnd()}\nLOG_LEVEL=debug\n`);
    try {
      const applied = await a.script("ops.sh", ["apply"]);
      expect(applied.code, applied.output.slice(-4000)).toBe(0);
      const recreated = await a.container("worker");
      expect(recreated).not.toBe(worker); // a new container: only that re-reads .env
      const env = await run("docker", ["exec", recreated, "printenv", "LOG_LEVEL"]);
      expect(env.output.trim()).toBe("debug");
    } finally {
      await writeFile(a.envFile, settings);
    }
    const back = await a.script("ops.sh", ["apply"]);
    expect(back.code, back.output.slice(-4000)).toBe(0);
    expect(await a.health("web")).toBe(200);
  });

  // The upgrade and the restart in one bring-up: the stack is stopped (containers removed,
  // volumes kept) and the command brings it back as an upgrade, recreating every container.
  it("a second run of the command, on a stopped stack, is an upgrade that keeps the settings, the data and the job schedules", async () => {
    await a.redis(["SET", "smoke:marker", randomUUID()]);
    const before = await snapshot(a);
    expect(before.runs.split(",")).toHaveLength(4);
    const fires = before.schedules.split("\n").filter((_, i) => i % 2 === 1);
    expect(fires).toHaveLength(2);
    for (const fire of fires) expect(Number(fire)).toBeGreaterThan(Date.now());
    const settingsBefore = await readFile(a.envFile, "utf8");
    const down = await a.compose(["down", "--timeout", "20"]);
    expect(down.code, down.output).toBe(0);

    const up = await a.script("up.sh", ["--airgapped", "--skip-host-setup", "--no-install"]);
    expect(up.code, up.output.slice(-4000)).toBe(0);
    expect(up.output).toContain("never rewritten");
    expect(await readFile(a.envFile, "utf8")).toBe(settingsBefore);
    expect(await snapshot(a)).toEqual(before);
    expect(await a.health("web")).toBe(200);
    expect(await a.health("gateway")).toBe(200);
    expect((await signIn(a)).email).toBe(owner.email);
  });

  it("[P07] a backup restores into a fresh stack that decrypts it with the key; another key is refused, naming the key id", async () => {
    const backup = await a.script("backup.sh", [join(workDir, "backups")]);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain("The encryption key is not in the dump");
    const dump = backup.output.trim().split("\n").at(-1)!;
    const aKey = settingOf(await readFile(a.envFile, "utf8"), "SECONDSHIFT_ENCRYPTION_KEY");
    const keyId = (await a.sql(`SELECT "keyId" FROM "EncryptionKeyCheck"`)).trim();
    expect(backup.output).toContain(keyId);

    // Stack B: fresh settings (its own passwords), then A's key, as an operator restoring does.
    const written = await b.script("write-env.sh", [b.envFile]);
    expect(written.code, written.output).toBe(0);
    const bSettings = await readFile(b.envFile, "utf8");
    await writeFile(b.envFile, withSettings(bSettings, { SECONDSHIFT_ENCRYPTION_KEY: aKey }));
    const restore = await b.script("restore.sh", [dump, "--yes"]);
    expect(restore.code, restore.output.slice(-4000)).toBe(0);
    expect(await b.sql(`SELECT "keyId" FROM "EncryptionKeyCheck"`)).toBe(keyId);
    expect(await b.health("web")).toBe(200);

    const wrongKey = randomBytes(32).toString("base64");
    const [port] = await freePorts(1);
    // A wrong key: the service stays up but serves nothing that reads data; /readyz says why.
    const name = `ss-smoke-wrong-key-${suffix}`;
    const args = await serviceArgs(b, "gateway", {
      SECONDSHIFT_ENCRYPTION_KEY: wrongKey,
      PORT: String(port),
    });
    const started = await run("docker", ["run", "-d", "--name", name, ...args]);
    expect(started.code, started.output).toBe(0);
    try {
      const answer = await notReadyAnswer(port!);
      expect(answer.code).toBe(503);
      expect(answer.body).toContain(keyId);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      const logs = await run("docker", ["logs", name]);
      expect(logs.output).toContain("Refusing to start");
      expect(logs.output).toContain(keyId);
      for (const text of [answer.body, logs.output]) {
        expect(text).not.toContain(wrongKey);
        expect(text).not.toContain(aKey);
      }
    } finally {
      await run("docker", ["rm", "-f", name]);
    }
  });

  it("[C13] the worker image refuses, in production, to start sandboxes without gVisor", async () => {
    const refused = await runService(b, "worker", { SANDBOX_RUNTIME: "runc" });
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain("SANDBOX_RUNTIME");
    expect(refused.output).toContain("gVisor");
  });
});

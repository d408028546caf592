// Smoke test of the real deployment: the operator's own scripts build every image air-gapped
// (Debian packages + the npm registry only), bring the compose stack up, upgrade it in place,
// restart it, back it up and restore the backup into a fresh stack that decrypts with the key.
// Two stacks (A, B) on loopback ports of the host network; both are removed at the end.
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appTag, freePorts, run, Stack } from "./testing/stack.ts";

const image = `secondshift-app:${appTag}`;
const suffix = randomBytes(3).toString("hex");
let workDir: string;
let a: Stack;
let b: Stack;

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

/** The stack's durable state: the key check row, the migrations, a Redis value (AOF). */
async function snapshot(stack: Stack) {
  return {
    keyChecks: await stack.sql(`SELECT "keyId" || ' ' || "createdAt" FROM "EncryptionKeyCheck"`),
    migrations: await stack.sql(`SELECT count(*) FROM _prisma_migrations`),
    marker: await stack.redis(["GET", "smoke:marker"]),
  };
}

/** Starts one service of the app image outside compose, on the host network; how it ended. */
async function runService(stack: Stack, service: string, env: Record<string, string>) {
  const envFile = join(workDir, `${service}-override.env`);
  await writeFile(envFile, withSettings(await readFile(stack.envFile, "utf8"), env), {
    mode: 0o600,
  });
  const args = ["run", "--rm", "--network", "host", "--env-file", envFile, image];
  return run("timeout", ["120", "docker", ...args, "node", `dist/${service}.mjs`]);
}

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), "secondshift-smoke-"));
  const [p1, p2, p3, p4, p5, p6, p7, p8, p9, p10] = await freePorts(10);
  a = new Stack(`ss-smoke-a-${suffix}`, workDir, {
    postgres: p1!,
    redis: p2!,
    web: p3!,
    gateway: p4!,
    worker: p9!,
  });
  b = new Stack(`ss-smoke-b-${suffix}`, workDir, {
    postgres: p5!,
    redis: p6!,
    web: p7!,
    gateway: p8!,
    worker: p10!,
  });
});

afterAll(async () => {
  for (const stack of [a, b]) {
    const down = await stack?.down();
    if (down && down.code !== 0) console.error(`compose down ${stack.project}: ${down.output}`);
  }
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

    const settings = await readFile(a.envFile, "utf8");
    expect((await stat(a.envFile)).mode & 0o777).toBe(0o600);
    expect(Buffer.from(settingOf(settings, "SECONDSHIFT_ENCRYPTION_KEY"), "base64")).toHaveLength(
      32,
    );
    expect(settingOf(settings, "POSTGRES_PASSWORD").length).toBeGreaterThanOrEqual(24);
    expect(await a.health("web")).toBe(200);
    expect(await a.health("gateway")).toBe(200);
  });

  // Hook: once the owner API exists (web logs `<public url>/setup?token=…`), complete the
  // first-run setup here through it and check the owner can sign in after the restarts below.
  it.todo("completes the first-run setup through the setup link");

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
      dist: ["gateway.mjs", "migrate.mjs", "rotate-keys.mjs", "web.mjs", "worker.mjs"],
    });
  });

  it("a second run of the command is an upgrade that keeps the settings and the data", async () => {
    await a.redis(["SET", "smoke:marker", randomUUID()]);
    const before = await snapshot(a);
    const settingsBefore = await readFile(a.envFile, "utf8");

    const up = await a.script("up.sh", ["--airgapped", "--skip-host-setup", "--no-install"]);
    expect(up.code, up.output.slice(-4000)).toBe(0);
    expect(up.output).toContain("never rewritten");
    expect(await readFile(a.envFile, "utf8")).toBe(settingsBefore);
    expect(await snapshot(a)).toEqual(before);
    expect(await a.health("web")).toBe(200);
  });

  it("a restarted stack finds its database and its Redis data intact", async () => {
    const before = await snapshot(a);
    expect(before.marker).not.toBe("");
    const down = await a.compose(["down", "--timeout", "20"]);
    expect(down.code, down.output).toBe(0);
    const up = await a.compose(["up", "-d"]);
    expect(up.code, up.output).toBe(0);
    const ready = await a.script("wait-healthy.sh");
    expect(ready.code, ready.output).toBe(0);
    expect(await snapshot(a)).toEqual(before);
    expect(await a.health("gateway")).toBe(200);
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
    const refused = await runService(b, "gateway", {
      SECONDSHIFT_ENCRYPTION_KEY: wrongKey,
      PORT: String(port),
    });
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain("Refusing to start");
    expect(refused.output).toContain(keyId);
    expect(refused.output).not.toContain(wrongKey);
    expect(refused.output).not.toContain(aKey);
  });

  it("[C13] the worker image refuses, in production, to start sandboxes without gVisor", async () => {
    const refused = await runService(b, "worker", { SANDBOX_RUNTIME: "runc" });
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain("SANDBOX_RUNTIME");
    expect(refused.output).toContain("gVisor");
  });
});

// npm run bench:sandbox — create → first output → destroy through the package, beside plain
// `docker run --rm --runtime=runsc` of the same image and command, plus idle sandbox memory and a
// warm-pool figure (exec into an already created sandbox). Prints figures; asserts nothing.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import Docker from "dockerode";
import { createLogger } from "@secondshift/logging";
import { createSandboxManager } from "../src/index.ts";

const run = promisify(execFile);
const image = process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test";
const runs = Number(process.env.BENCH_RUNS ?? 20);
const docker = new Docker();
const limits = {
  memoryBytes: 512 << 20,
  nanoCpus: 1e9,
  pidsLimit: 256,
  nofile: 1024,
  workspaceBytes: 256 << 20,
  tmpBytes: 64 << 20,
};
const manager = createSandboxManager({
  docker,
  image,
  runtime: "runsc",
  production: true,
  allowRunc: false,
  limits,
  installationId: "bench",
  logger: createLogger({ name: "bench", level: "warn" }),
});
const opts = () => ({
  runId: `bench-${Math.random().toString(36).slice(2)}`,
  workspaceId: "bench",
  deadline: new Date(Date.now() + 600_000),
});

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (n: number) => `${n.toFixed(0)} ms`;

async function viaPackage(): Promise<number> {
  const t = performance.now();
  const sb = await manager.create(opts());
  const r = await sb.exec("echo ready");
  if (r.stdout !== "ready\n") throw new Error(`unexpected output ${r.stdout}`);
  await sb.destroy();
  return performance.now() - t;
}

async function viaCli(): Promise<number> {
  const t = performance.now();
  const { stdout } = await run("docker", [
    "run",
    "--rm",
    "--runtime=runsc",
    "--network=none",
    "--read-only",
    "--cap-drop=ALL",
    "--security-opt",
    "no-new-privileges",
    "--user",
    "10001:10001",
    image,
    "echo",
    "ready",
  ]);
  if (stdout !== "ready\n") throw new Error(`unexpected output ${stdout}`);
  return performance.now() - t;
}

async function main(): Promise<void> {
  await run("bash", [
    new URL("../../../scripts/build-sandbox-image.sh", import.meta.url).pathname,
    image,
  ]);
  await viaPackage();
  await viaCli(); // warm caches once
  const pkg: number[] = [];
  const cli: number[] = [];
  for (let i = 0; i < runs; i++) {
    pkg.push(await viaPackage());
    cli.push(await viaCli());
  }
  // Warm pool: sandboxes created ahead of time; a run then pays only exec (+ destroy, off the path).
  const pool = await Promise.all(Array.from({ length: 5 }, () => manager.create(opts())));
  const warm: number[] = [];
  for (let i = 0; i < runs; i++) {
    const sb = pool[i % pool.length]!;
    const t = performance.now();
    await sb.exec("echo ready");
    warm.push(performance.now() - t);
  }
  await new Promise((r) => setTimeout(r, 2000));
  const stats = (await docker.getContainer(pool[0]!.id).stats({ stream: false })) as {
    memory_stats?: { usage?: number; stats?: { cache?: number; total_inactive_file?: number } };
  };
  const mem =
    (stats.memory_stats?.usage ?? 0) -
    (stats.memory_stats?.stats?.total_inactive_file ?? stats.memory_stats?.stats?.cache ?? 0);
  await Promise.all(pool.map((s) => s.destroy()));

  const p50 = pct(pkg, 50);
  const c50 = pct(cli, 50);
  console.log(`sandbox benchmark (${runs} runs each, image ${image}, runtime runsc)`);
  console.log(`  package  create→first output→destroy  p50 ${ms(p50)}  p95 ${ms(pct(pkg, 95))}`);
  console.log(`  docker run --rm --runtime=runsc        p50 ${ms(c50)}  p95 ${ms(pct(cli, 95))}`);
  console.log(`  ratio package/cli (p50)                ${(p50 / c50).toFixed(2)}`);
  console.log(
    `  warm pool (exec into a pre-created sandbox) p50 ${ms(pct(warm, 50))}  p95 ${ms(pct(warm, 95))}`,
  );
  console.log(
    `  idle sandbox memory (cgroup usage minus page cache) ${(mem / 1024 / 1024).toFixed(1)} MiB`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

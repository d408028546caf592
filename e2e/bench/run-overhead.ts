// npm run bench:run — the platform's own overhead per run, with a scripted model that answers
// at once: the real gateway, the worker platform as apps/worker wires it (BullMQ, database
// claim, git checkout, gVisor sandbox), PostgreSQL and Redis. Phases of one run:
//   enqueue → claimed (queuedAt → startedAt) → sandbox ready (the executor's run_started event)
//   → first model request (arrival at the model server) → run recorded (finishedAt).
// Latency: BENCH_RUNS sequential runs (default 20, after one warm-up), p50 / p95 per phase.
// Throughput: BENCH_BURST runs enqueued at once with the workspace limit and the worker
// concurrency both at BENCH_CONCURRENCY (default 3): runs completed per minute.
// Needs TEST_DATABASE_URL, TEST_REDIS_URL, dockerd with runsc and the sandbox image
// (TEST_SANDBOX_IMAGE, default secondshift-sandbox:test).
import Docker from "dockerode";
import { runNow } from "@secondshift/domain";
import { actAs } from "../src/harness/actor.ts";
import { startPlatform, type Platform } from "../src/harness/platform.ts";
import { waitFor } from "../src/harness/scenario.ts";
import { seedPlainWorkspace, syncAndApproveAll } from "../src/harness/seed-plain.ts";
import {
  createRepository,
  jobYaml,
  plantedSecrets,
  type SeededWorkspace,
} from "../src/harness/seed.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const BURST = Number(process.env.BENCH_BURST ?? 24);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 3);
const IMAGE = process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test";
const TARGET_MS = 1_000;

async function preflight(): Promise<void> {
  const missing = ["TEST_DATABASE_URL", "TEST_REDIS_URL"].filter((name) => !process.env[name]);
  if (missing.length > 0) {
    fail(
      `${missing.join(" and ")} not set. Point them at a PostgreSQL admin URL and a Redis URL, e.g.\n  TEST_DATABASE_URL=postgresql://postgres@127.0.0.1:5432/postgres TEST_REDIS_URL=redis://127.0.0.1:6379 npm run bench:run`,
    );
  }
  const docker = new Docker();
  try {
    await docker.ping();
  } catch {
    fail("Docker is not reachable: start dockerd (with the runsc runtime) first.");
  }
  try {
    await docker.getImage(IMAGE).inspect();
  } catch {
    fail(
      `The sandbox image ${IMAGE} does not exist: build it with scripts/build-sandbox-image.sh or set TEST_SANDBOX_IMAGE.`,
    );
  }
  const info = (await docker.info()) as { Runtimes?: Record<string, unknown> };
  if (!info.Runtimes?.runsc)
    fail(
      'Docker has no runsc runtime: install gVisor and register it (README, "Sandboxes and gVisor").',
    );
}

function fail(message: string): never {
  console.error(`bench:run: ${message}`);
  process.exit(1);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

class RunFailed extends Error {}

/** Times the executor's start-up steps (the executor calls these through executorDeps). */
function timeStartup(p: Platform): { checkout: number[]; create: number[]; copyIn: number[] } {
  const times = { checkout: [] as number[], create: [] as number[], copyIn: [] as number[] };
  const deps = p.worker.executorDeps;
  const { source, sandboxes } = deps;
  deps.source = {
    checkout: async (input) => {
      const t = performance.now();
      const result = await source.checkout(input);
      times.checkout.push(Math.round(performance.now() - t));
      return result;
    },
  };
  deps.sandboxes = {
    create: async (input) => {
      const t = performance.now();
      const sandbox = await sandboxes.create(input);
      times.create.push(Math.round(performance.now() - t));
      const copyInArchive = sandbox.copyInArchive.bind(sandbox);
      sandbox.copyInArchive = async (archive) => {
        const c = performance.now();
        await copyInArchive(archive);
        times.copyIn.push(Math.round(performance.now() - c));
      };
      return sandbox;
    },
  };
  return times;
}

interface Sample {
  claim: number;
  sandbox: number;
  firstRequest: number;
  enqueueToFirstRequest: number;
  record: number;
  total: number;
}

async function oneRun(
  p: Platform,
  ws: SeededWorkspace,
  jobId: string,
  requestTimes: number[],
): Promise<Sample> {
  const before = requestTimes.length;
  const { runId } = await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: jobId });
  const run = await waitFor(
    "the run to be recorded",
    async () => {
      const row = await p.t.db.run.findUniqueOrThrow({ where: { id: runId } });
      return row.finishedAt && row;
    },
    120_000,
  );
  if (run.status !== "SUCCEEDED") {
    const lines = p
      .logs()
      .split("\n")
      .filter((l) => l.includes(runId) && /"level":"(warn|error)"/.test(l));
    throw new RunFailed(
      `run ${runId} ended ${run.status}: ${run.error}\n${lines.slice(-5).join("\n").slice(0, 3000)}`,
    );
  }
  const started = await p.t.db.runEvent.findFirstOrThrow({
    where: { runId, type: "run_started" },
    orderBy: { seq: "asc" },
  });
  const firstRequest = requestTimes[before];
  if (firstRequest === undefined) throw new Error("the model server saw no request for the run");
  const queued = run.queuedAt.getTime();
  const claimed = run.startedAt!.getTime();
  const ready = started.createdAt.getTime();
  return {
    claim: claimed - queued,
    sandbox: ready - claimed,
    firstRequest: firstRequest - ready,
    enqueueToFirstRequest: firstRequest - queued,
    record: run.finishedAt!.getTime() - firstRequest,
    total: run.finishedAt!.getTime() - queued,
  };
}

async function main(): Promise<void> {
  await preflight();
  const p = await startPlatform({ concurrency: CONCURRENCY });
  try {
    const burstKeys = Array.from({ length: BURST }, (_, i) => `burst-${i}`);
    const repo = createRepository({
      ".secondshift.yaml": jobYaml([{ key: "latency" }, ...burstKeys.map((key) => ({ key }))]),
      "README.md": "# Bench\n",
    });
    const ws = await seedPlainWorkspace(p, {
      planted: plantedSecrets(),
      repoDir: repo.dir,
      maxConcurrentRuns: CONCURRENCY,
    });
    await syncAndApproveAll(p, ws);
    const jobs = await p.t.db.job.findMany({ where: { workspaceId: ws.workspaceId } });
    const latencyJob = jobs.find((j) => j.key === "latency")!;
    const requestTimes: number[] = [];
    p.model.script([
      () => {
        requestTimes.push(Date.now());
        return { text: "Done." };
      },
    ]);
    const startup = timeStartup(p);
    await p.worker.start({ repoSync: false });

    console.log(
      `bench:run — ${RUNS} sequential runs (+1 warm-up), then ${BURST} at once; concurrency ${CONCURRENCY}; image ${IMAGE}; runtime runsc`,
    );
    await oneRun(p, ws, latencyJob.id, requestTimes); // warm-up: first sandbox, first connections
    for (const list of Object.values(startup)) list.length = 0;
    const samples: Sample[] = [];
    const failures: string[] = [];
    while (samples.length < RUNS && failures.length < 5) {
      try {
        samples.push(await oneRun(p, ws, latencyJob.id, requestTimes));
      } catch (error) {
        if (!(error instanceof RunFailed)) throw error;
        failures.push(error.message);
        console.error(`a run failed (not counted): ${error.message}`);
      }
    }
    if (samples.length < RUNS) fail(`${failures.length} runs failed; no figures.`);

    const rows: Array<[string, keyof Sample]> = [
      ["enqueue → claimed", "claim"],
      ["claimed → sandbox ready", "sandbox"],
      ["sandbox ready → first model request", "firstRequest"],
      ["enqueue → first model request", "enqueueToFirstRequest"],
      ["model answer → run recorded", "record"],
      ["enqueue → run recorded", "total"],
    ];
    console.log("");
    console.log(
      `${"phase".padEnd(38)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}${"max ms".padStart(9)}`,
    );
    for (const [label, key] of rows) {
      const values = samples.map((s) => s[key]);
      console.log(
        `${label.padEnd(38)}${String(percentile(values, 50)).padStart(9)}${String(percentile(values, 95)).padStart(9)}${String(Math.max(...values)).padStart(9)}`,
      );
    }
    const row = (label: string, values: number[]) =>
      console.log(
        `${label.padEnd(38)}${String(percentile(values, 50)).padStart(9)}${String(percentile(values, 95)).padStart(9)}${String(Math.max(...values)).padStart(9)}`,
      );
    console.log("  of which (claimed → sandbox ready):");
    row("  git checkout at the commit", startup.checkout);
    row("  sandbox create (runsc, started)", startup.create);
    row("  copy repository in", startup.copyIn);

    // Throughput at the limit: every burst job enqueued at once.
    const burstJobs = jobs.filter((j) => j.key.startsWith("burst-"));
    const runIds: string[] = [];
    for (const job of burstJobs)
      runIds.push((await runNow(actAs(p, ws.workspaceId, ws.adminId), { jobId: job.id })).runId);
    await waitFor(
      "the burst to finish",
      async () =>
        (await p.t.db.run.count({ where: { id: { in: runIds }, finishedAt: { not: null } } })) ===
        runIds.length,
      600_000,
    );
    const burst = await p.t.db.run.findMany({ where: { id: { in: runIds } } });
    const failed = burst.filter((r) => r.status !== "SUCCEEDED");
    const first = Math.min(...burst.map((r) => r.queuedAt.getTime()));
    const last = Math.max(...burst.map((r) => r.finishedAt!.getTime()));
    const perMinute = (burst.length / (last - first)) * 60_000;

    for (const r of failed) console.error(`burst run ${r.id} ended ${r.status}: ${r.error}`);
    const p50 = percentile(
      samples.map((s) => s.enqueueToFirstRequest),
      50,
    );
    console.log("");
    console.log(
      `throughput: ${burst.length} runs in ${((last - first) / 1000).toFixed(1)} s at concurrency ${CONCURRENCY} → ${perMinute.toFixed(1)} runs/min${failed.length ? ` (${failed.length} not SUCCEEDED)` : ""}`,
    );
    if (failures.length)
      console.log(`${failures.length} sequential run(s) failed and were left out (see above).`);
    console.log(
      `target: p50 enqueue → first model request ≤ ${TARGET_MS} ms: ${p50} ms — ${p50 <= TARGET_MS ? "met" : "NOT met"}`,
    );
  } finally {
    await p.close();
  }
}

await main();

// `npm run bench:gateway`: added latency of the SecondShift gateway and of Portkey's open-source
// gateway over direct calls to the same scripted provider (OpenAI chat format), at concurrency
// 1 and 16, streamed and not, plus requests per second through each gateway (each gateway is
// one Node process, i.e. one core). Concurrency 16 is measured twice: one run sending 16 at
// once (the worst case for the run's budget row), and the realistic shape, 16 runs in parallel
// each sending its requests one after another, as agent loops do ("16 runs").
// A script, not a timed test: numbers depend on the machine.
// Needs TEST_DATABASE_URL (PostgreSQL admin URL), as the tests do.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createKeyring } from "@secondshift/crypto";
import { createTestDatabase } from "@secondshift/db/testing";
import { seedRun } from "../src/testing/fixtures.ts";
import pg from "pg";
import { percentile, runLoad, runPaced, type Target } from "./load.ts";

const here = dirname(fileURLToPath(import.meta.url));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const children: ChildProcess[] = [];
const logFile = join(tmpdir(), `secondshift-bench-gateway-${process.pid}.log`);

function startChild(
  args: string[],
  env: Record<string, string> = {},
  ready?: RegExp,
  stdoutFd?: number,
): Promise<string> {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ["ignore", stdoutFd ?? "pipe", "pipe"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = ready ? ready.exec(out) : /(http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1] ?? m[0]);
    };
    child.stdout?.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) =>
      reject(new Error(`${args.join(" ")} exited with ${code}: ${out.slice(-2000)}`)),
    );
  });
}

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

const tsx = ["--import", "tsx"];
const tdb = await createTestDatabase();
const keyBase64 = randomBytes(32).toString("base64");
const keyring = createKeyring(new Uint8Array(Buffer.from(keyBase64, "base64")));
try {
  const providerUrl = await startChild([...tsx, join(here, "provider-process.ts")]);
  const seed = () =>
    seedRun(tdb.db, keyring, {
      kind: "OPENAI",
      baseUrl: providerUrl,
      providerKey: "sk-bench-provider-key-000000",
      budget: 2_000_000_000,
    });
  const run = await seed();
  const parallelRuns = await Promise.all(Array.from({ length: 16 }, seed));
  const gatewayUrl = await startChild(
    [...tsx, join(here, "gateway-process.ts")],
    { BENCH_DATABASE_URL: tdb.url, BENCH_KEY: keyBase64 },
    undefined,
    openSync(logFile, "w"),
  );
  const portkeyPort = await freePort();
  const portkeyMain = join(
    dirname(createRequire(import.meta.url).resolve("@portkey-ai/gateway/package.json")),
    "build",
    "start-server.js",
  );
  await startChild(
    [portkeyMain, `--port=${portkeyPort}`, "--headless"],
    { NODE_ENV: "production" },
    /(Ready for connections)/,
  );
  await new Promise((r) => setTimeout(r, 1000));

  const targets: Record<string, Target> = {
    direct: {
      origin: providerUrl,
      path: "/v1/chat/completions",
      headers: { authorization: "Bearer sk-bench-provider-key-000000" },
    },
    secondshift: {
      origin: gatewayUrl,
      path: "/v1/chat/completions",
      headers: { authorization: `Bearer ${run.token}` },
    },
    portkey: {
      origin: `http://127.0.0.1:${portkeyPort}`,
      path: "/v1/chat/completions",
      headers: {
        authorization: "Bearer sk-bench-provider-key-000000",
        "x-portkey-provider": "openai",
        "x-portkey-custom-host": `${providerUrl}/v1`,
      },
    },
  };
  // The same target for every worker, except the gateway in the "16 runs" cells: one token each.
  const targetsFor = (name: string, runs: number): Target | Target[] =>
    name === "secondshift" && runs > 1
      ? parallelRuns.map((r) => ({
          ...targets.secondshift!,
          headers: { authorization: `Bearer ${r.token}` },
        }))
      : targets[name]!;
  const cells = [
    { concurrency: 1, runs: 1, label: "1" },
    { concurrency: 16, runs: 1, label: "16" },
    { concurrency: 16, runs: 16, label: "16 runs" },
  ];
  const rows: string[][] = [];
  for (const stream of [false, true]) {
    for (const { concurrency, runs, label } of cells) {
      // Streams carry stream_options so that the direct call and both gateways send identical bodies upstream.
      const body = JSON.stringify({
        model: "scripted",
        max_tokens: 64,
        messages: [
          { role: "user", content: "Summarise the failing test output and propose a fix." },
        ],
        ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
      });
      const failed = new Set<string>();
      const p50: Record<string, number> = {};
      const p99: Record<string, number> = {};
      const rps: Record<string, number> = {};
      for (const name of ["direct", "secondshift", "portkey"]) {
        const target = targetsFor(name, runs);
        await runLoad(target, body, concurrency, Math.min(300, REQUESTS)); // warm-up
        const r = await runLoad(target, body, concurrency, REQUESTS);
        if (r.errors > r.latencies.length / 2) failed.add(name);
        if (r.errors > 0)
          console.error(
            `${name} (${stream ? "stream" : "json"}, c=${label}): ${r.errors} failed requests`,
          );
        p50[name] = percentile(r.latencies, 50);
        p99[name] = percentile(r.latencies, 99);
        rps[name] = r.latencies.length / r.seconds;
      }
      const added = (name: string, p: Record<string, number>) =>
        failed.has(name) ? NaN : p[name]! - p.direct!;
      const fmt = (v: number, digits = 2) => (Number.isNaN(v) ? "failed" : v.toFixed(digits));
      rows.push([
        stream ? "stream" : "json",
        label,
        p50.direct!.toFixed(2),
        fmt(added("secondshift", p50)),
        fmt(added("secondshift", p99)),
        fmt(added("portkey", p50)),
        fmt(added("portkey", p99)),
        fmt(added("portkey", p50) / added("secondshift", p50), 1),
        failed.has("secondshift") ? "failed" : rps.secondshift!.toFixed(0),
        failed.has("portkey") ? "failed" : rps.portkey!.toFixed(0),
      ]);
    }
  }
  const header = [
    "mode",
    "conc",
    "direct p50",
    "ss +p50",
    "ss +p99",
    "portkey +p50",
    "portkey +p99",
    "pk/ss p50",
    "ss req/s",
    "pk req/s",
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i]!)).join("  ");
  console.log(
    `\nAdded latency over direct calls, ms (${REQUESTS} requests per cell, OpenAI chat format, scripted provider on loopback)`,
  );
  console.log(line(header));
  for (const r of rows) console.log(line(r));
  // What one hop to an idle process costs on this machine: the gateway's own hops (to
  // PostgreSQL, to the provider) always reach a process that has been waiting, while the
  // direct baseline's back-to-back calls never do.
  const body = JSON.stringify({
    model: "scripted",
    max_tokens: 64,
    messages: [{ role: "user", content: "ping" }],
  });
  const warm = await runLoad(targets.direct!, body, 1, 500);
  const idle = await runPaced(targets.direct!, body, 500, 2);
  console.log(
    `Direct calls back to back p50 ${percentile(warm.latencies, 50).toFixed(2)} ms; ` +
      `direct calls 2 ms apart (the provider idle before each) p50 ${percentile(idle.latencies, 50).toFixed(2)} ms.`,
  );
  const client = new pg.Client({ connectionString: tdb.url });
  await client.connect();
  const selectOne = async (pauseMs: number) => {
    const times: number[] = [];
    for (let i = 0; i < 500; i += 1) {
      if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const t0 = performance.now();
      await client.query("SELECT 1");
      times.push(performance.now() - t0);
    }
    return percentile(times, 50).toFixed(2);
  };
  console.log(
    `PostgreSQL SELECT 1 back to back p50 ${await selectOne(0)} ms; 2 ms apart p50 ${await selectOne(2)} ms.`,
  );
  await client.end();
  console.log(
    '"failed": most requests through that gateway failed (Portkey 1.15.2 answers 500 to streamed OpenAI calls on Node 20: TypeError: immutable in its header update).',
  );
} finally {
  for (const child of children) child.kill("SIGTERM");
  await tdb.drop();
  rmSync(logFile, { force: true });
}

// npm run bench:api — how long a run event takes from its insert to a subscribed browser:
// N clients watch one run's live transcript over real HTTP (SSE, tRPC httpSubscriptionLink),
// events are appended through the run lifecycle's appendRunEvent at a steady pace, and each
// delivery's latency is measured from the moment appendRunEvent was called (so it includes the
// insert itself, the commit's NOTIFY, the shared listener, the re-read and the SSE write).
// The server and the writer share this process; the clients run in a child process.
// Needs TEST_DATABASE_URL (a throwaway PostgreSQL), like the tests.
// Settings: TRANSCRIPT_BENCH_CLIENTS (10), TRANSCRIPT_BENCH_EVENTS (300), TRANSCRIPT_BENCH_RATE
// (events per second, 50).
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { createUser } from "@secondshift/accounts/testing";
import { createLogger } from "@secondshift/logging";
import { appendRunEvent, finishRun } from "@secondshift/run-lifecycle";
// Not "@secondshift/db/testing": its index also exports Vitest fixtures, which refuse to load
// outside Vitest. The two modules a script needs, directly.
import { seedRun, seedWorkspace } from "../../db/src/testing/seed.ts";
import { createTestDatabase } from "../../db/src/testing/test-database.ts";
import { startRunEventListener } from "../src/run-events/listener.ts";
import { startTestApi } from "../src/testing/index.ts";

const CLIENTS = Number(process.env.TRANSCRIPT_BENCH_CLIENTS ?? 10);
const EVENTS = Number(process.env.TRANSCRIPT_BENCH_EVENTS ?? 300);
const RATE = Number(process.env.TRANSCRIPT_BENCH_RATE ?? 50);
const PASSWORD = "bench passphrase 0123456789";

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
const ms = (v: number) => `${v.toFixed(1)} ms`;

const t = await createTestDatabase({ maxConnections: 10 });
const logger = createLogger({ name: "bench", level: "warn" });
const listener = await startRunEventListener({ connectionString: t.url, logger });
const api = await startTestApi(t.db, {
  runEvents: listener,
  limits: { maxPerAccount: 1000, maxPerAddress: 1000 },
});
try {
  const seed = await seedWorkspace(t.db);
  const viewer = await createUser(t.db, PASSWORD, {
    workspaceId: seed.workspaceId,
    role: "VIEWER",
  });
  const run = await seedRun(t.db, seed, { status: "RUNNING" });
  const browser = api.browser();
  await browser.trpc.auth.signIn.mutate({ email: viewer.email, password: PASSWORD });

  const clients = startClients({
    base: api.base,
    cookie: [...browser.cookies][0]!,
    workspaceId: seed.workspaceId,
    runId: run.id,
    clients: CLIENTS,
  });
  // Warm-up: every client connected and has seen one event before measuring.
  await appendRunEvent(t.db, run, { type: "warmup", payload: {} });
  await clients.ready;

  const insertedAt = new Map<number, number>();
  const gap = 1000 / RATE;
  const started = performance.now();
  for (let i = 0; i < EVENTS; i++) {
    const due = started + i * gap;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const at = performance.timeOrigin + performance.now();
    const seq = await appendRunEvent(t.db, run, {
      type: "message",
      payload: { text: `line ${i} `.repeat(8) },
    });
    insertedAt.set(seq, at);
  }
  await finishRun(t.db, run, { status: "SUCCEEDED" });
  const watchers = await clients.results;

  const latencies: number[] = [];
  let complete = 0;
  for (const w of watchers) {
    w.seqs.forEach((seq, i) => {
      const at = insertedAt.get(seq);
      if (at !== undefined) latencies.push(w.arrivals[i]! - at);
    });
    if (w.seqs.every((s, i) => s === i)) complete += 1;
  }
  latencies.sort((x, y) => x - y);
  console.log(
    `transcript: ${CLIENTS} clients, ${EVENTS} events at ${RATE}/s, ${latencies.length} deliveries`,
  );
  console.log(`  clients with every event once, in order: ${complete}/${CLIENTS}`);
  console.log(
    `  insert → client: p50 ${ms(quantile(latencies, 0.5))}, p95 ${ms(quantile(latencies, 0.95))}, ` +
      `p99 ${ms(quantile(latencies, 0.99))}, max ${ms(latencies.at(-1) ?? NaN)}`,
  );
  const p95 = quantile(latencies, 0.95);
  console.log(`  target p95 ≤ 100 ms: ${p95 <= 100 ? "met" : "NOT met"}`);
} finally {
  await api.close();
  await listener.close();
  await t.drop();
}

function startClients(args: {
  base: string;
  cookie: [string, string];
  workspaceId: string;
  runId: string;
  clients: number;
}) {
  const script = new URL("./transcript-clients.ts", import.meta.url).pathname;
  const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(args)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout });
  let onReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (onReady = resolve));
  const results = new Promise<Array<{ seqs: number[]; arrivals: number[] }>>((resolve, reject) => {
    lines.on("line", (line) => {
      if (line === "ready") onReady();
      else if (line.startsWith("[")) resolve(JSON.parse(line));
    });
    child.on("exit", (code) => reject(new Error(`the clients' process exited (${code})`)));
  });
  return { ready, results };
}

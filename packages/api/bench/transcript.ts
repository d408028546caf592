// How long a run event takes from its insert to a subscribed browser: N clients watch one run's
// live transcript over real HTTP (SSE, tRPC httpSubscriptionLink), events are appended through
// the run lifecycle's appendRunEvent at a steady pace, and each delivery's latency is measured
// from the moment appendRunEvent was called (so it includes the insert itself, the commit's
// NOTIFY, the shared listener, the re-read and the SSE write). The server and the writer share
// the bench's process; the clients run in child processes, ten to a process.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { createUser } from "@secondshift/accounts/testing";
import type { Db } from "@secondshift/db";
import { appendRunEvent, finishRun } from "@secondshift/run-lifecycle";
import { seedRun, seedWorkspace } from "../../db/src/testing/seed.ts";
import type { TestApi } from "../src/testing/index.ts";
import { PASSWORD, quantile } from "./figures.ts";

export interface TranscriptFigures {
  clients: number;
  deliveries: number;
  complete: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

export async function benchTranscript(
  db: Db,
  api: TestApi,
  options: { clients: number; events: number; rate: number },
): Promise<TranscriptFigures> {
  const seed = await seedWorkspace(db);
  const viewer = await createUser(db, PASSWORD, { workspaceId: seed.workspaceId, role: "VIEWER" });
  const run = await seedRun(db, seed, { status: "RUNNING" });
  const browser = api.browser();
  await browser.trpc.auth.signIn.mutate({ email: viewer.email, password: PASSWORD });

  const clients = startClients({
    base: api.base,
    cookie: [...browser.cookies][0]!,
    workspaceId: seed.workspaceId,
    runId: run.id,
    clients: options.clients,
  });
  // Warm-up: every client connected and has seen one event before measuring.
  await appendRunEvent(db, run, { type: "warmup", payload: {} });
  await clients.ready;

  const insertedAt = new Map<number, number>();
  const gap = 1000 / options.rate;
  const started = performance.now();
  for (let i = 0; i < options.events; i++) {
    const wait = started + i * gap - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const at = performance.timeOrigin + performance.now();
    const seq = await appendRunEvent(db, run, {
      type: "message",
      payload: { text: `line ${i} `.repeat(8) },
    });
    insertedAt.set(seq, at);
  }
  await finishRun(db, run, { status: "SUCCEEDED" });
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
  return {
    clients: options.clients,
    deliveries: latencies.length,
    complete,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    p99: quantile(latencies, 0.99),
    max: latencies.at(-1) ?? NaN,
  };
}

/** Browsers per child process: a real user's tab has a process of its own, not a 50th of one. */
const CLIENTS_PER_PROCESS = 10;

type Watcher = { seqs: number[]; arrivals: number[] };

function startClients(args: {
  base: string;
  cookie: [string, string];
  workspaceId: string;
  runId: string;
  clients: number;
}) {
  const groups: number[] = [];
  for (let left = args.clients; left > 0; left -= CLIENTS_PER_PROCESS)
    groups.push(Math.min(left, CLIENTS_PER_PROCESS));
  const children = groups.map((clients) => startClientProcess({ ...args, clients }));
  return {
    ready: Promise.all(children.map((c) => c.ready)).then(() => undefined),
    results: Promise.all(children.map((c) => c.results)).then((all) => all.flat()),
  };
}

function startClientProcess(args: {
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
  const results = new Promise<Watcher[]>((resolve, reject) => {
    lines.on("line", (line) => {
      if (line === "ready") onReady();
      else if (line.startsWith("[")) resolve(JSON.parse(line) as Watcher[]);
    });
    child.on("exit", (code) => reject(new Error(`the clients' process exited (${code})`)));
  });
  return { ready, results };
}

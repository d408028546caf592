// Does the masker's cost depend on how many runs came before (P02)? Times, for a fresh worker
// and for one after RUNS runs: masking a log line, and starting a run (registering its secrets
// and masking the first line, which builds the matcher); and the heap after a collection. The
// current SecretMasker (one scope per run, closed at its end) runs twice: plain, and with a late
// registration after every run (a token refreshed by a tool call that outlived its run, added
// once the run's scope has closed). It is compared with the previous masker
// (bench/legacy-masker.ts: every secret kept, one regular expression rebuilt after each
// addition). Target: after/fresh ≤ 2× for time; the heap flat.
//
//   npm run bench:masker   (BENCH_RUNS=20000 by default; BENCH_LEGACY=0 skips the old masker)
import { randomBytes } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { SecretMasker } from "../src/index.ts";
import { LegacySecretMasker } from "./legacy-masker.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 20_000);
/** The secrets one run handles: its token, a connection credential, a git credential. */
const runSecrets = () => [
  `ss_run_${randomBytes(32).toString("base64url")}`,
  `ghp_${randomBytes(24).toString("hex")}`,
  `xoxb-${randomBytes(20).toString("hex")}`,
];
const LINE = JSON.stringify({
  level: "info",
  time: "2026-11-30T19:00:00.000Z",
  name: "worker",
  runId: "0b6c2f9e-1d2a-4c55-9a57-3f1f7b8c9d10",
  workspaceId: "7d3f0a1c-5e2b-4f8e-8c1d-2a9b6e4f3c21",
  event: "tool.called",
  tool: "github.search_issues",
  msg: "tool call finished in 412 ms with 3 results",
});

interface Masker {
  mask(text: string): string;
}
interface Subject {
  name: string;
  masker: Masker;
  /** Registers a run's secrets; returns what ends the run. */
  startRun(secrets: string[]): () => void;
}

function current(late: boolean): Subject {
  const masker = new SecretMasker();
  masker.add("sk-ant-long-lived-provider-key-0123456789");
  let n = 0;
  return {
    name: late ? "scoped Aho–Corasick, a late secret after every run" : "scoped Aho–Corasick",
    masker,
    startRun(secrets) {
      const id = `run-${n++}`;
      const scope = masker.scope(id);
      scope.add(...secrets);
      return () => {
        scope.close();
        if (late) masker.scopeFor(id).add(`ya29.${randomBytes(40).toString("base64url")}`);
      };
    },
  };
}

function legacy(): Subject {
  const masker = new LegacySecretMasker();
  masker.add("sk-ant-long-lived-provider-key-0123456789");
  return {
    name: "legacy regular expression",
    masker,
    startRun(secrets) {
      masker.add(...secrets);
      return () => undefined;
    },
  };
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function timeMaskLine(subject: Subject): number {
  const samples: number[] = [];
  for (let round = 0; round < 21; round++) {
    const started = performance.now();
    for (let i = 0; i < 200; i++) subject.masker.mask(LINE);
    samples.push((performance.now() - started) / 200);
  }
  return median(samples);
}

/** A run's start: its secrets registered, then the first line masked (the matcher is built). */
function timeStartRun(subject: Subject, rounds: number): number {
  const samples: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const secrets = runSecrets();
    const started = performance.now();
    const end = subject.startRun(secrets);
    subject.masker.mask(LINE);
    samples.push(performance.now() - started);
    end();
    subject.masker.mask(LINE);
  }
  return median(samples);
}

/** RUNS runs started and ended; the legacy masker is only given their secrets (its rebuild after
 * every run would take hours at this size: that is the problem being fixed). */
function age(subject: Subject, rebuildEachRun: boolean): void {
  for (let i = 0; i < RUNS; i++) {
    const end = subject.startRun(runSecrets());
    if (rebuildEachRun) subject.masker.mask(LINE);
    end();
  }
}

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
/** The heap after a full collection, in MiB. */
function heapMiB(): number {
  collect();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

function measure(make: () => Subject, rebuildEachRun: boolean, agedRounds: number) {
  // Warm the JIT on a throwaway instance, so "fresh" means a fresh masker, not cold code.
  const warm = make();
  for (let i = 0; i < 500; i++) {
    const end = warm.startRun(runSecrets());
    warm.masker.mask(LINE);
    end();
  }
  const subject = make();
  const fresh = { line: timeMaskLine(subject), start: timeStartRun(subject, 51), heap: heapMiB() };
  const aging = performance.now();
  age(subject, rebuildEachRun);
  const agingMs = performance.now() - aging;
  const aged = {
    line: timeMaskLine(subject),
    start: timeStartRun(subject, agedRounds),
    heap: heapMiB(),
  };
  return { name: subject.name, fresh, aged, agingMs };
}

const fmt = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
// The legacy masker's start after RUNS runs compiles one expression over every secret (seconds
// to a minute each); BENCH_LEGACY=0 skips it.
const results = [
  measure(() => current(false), true, 51),
  measure(() => current(true), true, 51),
  ...(process.env.BENCH_LEGACY === "0" ? [] : [measure(legacy, false, 1)]),
];
console.log(`Masker after ${RUNS} runs vs fresh (median; line = ${LINE.length} chars)`);
for (const r of results) {
  console.log(`\n${r.name} (aging ${RUNS} runs took ${(r.agingMs / 1000).toFixed(1)} s)`);
  console.log(
    `  mask a line:  fresh ${fmt(r.fresh.line)}  after ${fmt(r.aged.line)}  ratio ${(r.aged.line / r.fresh.line).toFixed(2)}×`,
  );
  console.log(
    `  start a run:  fresh ${fmt(r.fresh.start)}  after ${fmt(r.aged.start)}  ratio ${(r.aged.start / r.fresh.start).toFixed(2)}×`,
  );
  console.log(
    `  heap:         fresh ${r.fresh.heap.toFixed(1)} MiB  after ${r.aged.heap.toFixed(1)} MiB`,
  );
}
const worst = Math.max(
  ...results.slice(0, 2).flatMap((r) => [r.aged.line / r.fresh.line, r.aged.start / r.fresh.start]),
);
console.log(`\ntarget ≤ 2×: ${worst <= 2 ? "met" : "NOT met"} (worst ratio ${worst.toFixed(2)}×)`);
process.exitCode = worst <= 2 ? 0 : 1;

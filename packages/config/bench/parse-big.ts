// npm run bench -w @secondshift/config — how long `.secondshift.yaml` parsing blocks the event
// loop for files just under the 256 KiB limit, one line per shape (bench/big-config.ts): the
// median and the slowest of RUNS parses, as wall time and as this process's CPU time (on a
// shared machine the CPU time is the steadier figure), and how much of it is reading the
// text into a tree of positions (js-yaml's parser, yaml-tree.ts) before our own checks run.
// Target (issue #11): every shape under 200 ms. The worker reads files off its event loop
// (createConfigReader); the last column is the longest the main thread's event loop waited
// while the same file was read that way (issue #21 item 6).
import { loadavg } from "node:os";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createConfigReader } from "../src/repo-config/off-thread.ts";
import { parseRepoConfig } from "../src/repo-config/parse.ts";
import { repoConfigCaps } from "../src/repo-config/schema.ts";
import { readYamlTree } from "../src/repo-config/yaml-tree.ts";
import { bigConfigs } from "./big-config.ts";

const RUNS = Number(process.argv[2] ?? 15);
const limits = {
  maxTimeoutMinutes: 120,
  maxTokenBudget: 1_000_000,
  defaultTimeoutMinutes: 30,
};

function measure(run: () => void): { wall: number; cpu: number } {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  run();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[sorted.length >> 1] ?? 0;
  const max = sorted[sorted.length - 1] ?? 0;
  return `${median.toFixed(0).padStart(5)} ${max.toFixed(0).padStart(5)}`;
}

console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}; ${RUNS} runs each`,
);
console.log(
  `${"shape".padEnd(32)} ${"KiB".padStart(4)} ${"errors".padStart(6)} | wall ms: median  max | cpu ms: median  max | read into a tree, cpu ms: median | off-thread: loop held, max ms`,
);
const reader = createConfigReader({ deadlineMs: 10_000 });

/** The longest the event loop waited while the reader's thread read `text`, ms. */
async function loopHeldOffThread(text: string): Promise<number> {
  await reader.parse(text, { limits }); // warm the thread
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  for (let i = 0; i < 3; i++) await reader.parse(text, { limits });
  delay.disable();
  return delay.max / 1e6;
}

for (const [name, generate] of Object.entries(bigConfigs)) {
  const text = generate();
  // First, before this thread's own parses leave garbage for its collector to pause on.
  const held = await loopHeldOffThread(text);
  const wall: number[] = [];
  const cpu: number[] = [];
  const read: number[] = [];
  let result = parseRepoConfig(text, { limits }); // warm-up
  for (let i = 0; i < RUNS; i++) {
    const sample = measure(() => (result = parseRepoConfig(text, { limits })));
    wall.push(sample.wall);
    cpu.push(sample.cpu);
    read.push(
      measure(() =>
        readYamlTree(text, {
          maxDepth: repoConfigCaps.maxNestingDepth,
          maxExpandedSize: repoConfigCaps.maxExpandedValues,
        }),
      ).cpu,
    );
  }
  const errors = result.ok ? "0" : String(result.errors.length);
  console.log(
    `${name.padEnd(32)} ${(Buffer.byteLength(text) / 1024).toFixed(0).padStart(4)} ${errors.padStart(6)} |         ${summary(wall)} |        ${summary(cpu)} |        ${summary(read).trim().split(/\s+/)[0]!.padStart(5)}           | ${held.toFixed(0).padStart(5)}`,
  );
}
await reader.close();

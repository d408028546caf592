// A closed-loop load generator: `concurrency` workers each send requests back to back over
// keep-alive connections and read every response to the end; per-request latency in ms. Given
// several targets (one per run: its own token), worker i sends as target i, so each run has
// exactly one request in flight, as an agent loop does.
import { Pool } from "undici";

export interface Target {
  origin: string;
  path: string;
  headers: Record<string, string>;
}

export interface LoadResult {
  latencies: number[];
  seconds: number;
  errors: number;
}

/** One request, read to the end (latency includes the whole, possibly streamed, response). */
async function timedRequest(
  pool: Pool,
  target: Target,
  body: string,
): Promise<{ ms: number; ok: boolean }> {
  const t0 = performance.now();
  try {
    const res = await pool.request({
      method: "POST",
      path: target.path,
      headers: { "content-type": "application/json", ...target.headers },
      body,
    });
    for await (const _chunk of res.body) {
      // read to the end
    }
    return { ms: performance.now() - t0, ok: res.statusCode === 200 };
  } catch {
    return { ms: performance.now() - t0, ok: false };
  }
}

export async function runLoad(
  target: Target | Target[],
  body: string,
  concurrency: number,
  requests: number,
): Promise<LoadResult> {
  const targets = Array.isArray(target) ? target : [target];
  const pool = new Pool(targets[0]!.origin, { connections: concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const worker = async (_: unknown, index: number) => {
    const own = targets[index % targets.length]!;
    while (next < requests) {
      next += 1;
      const { ms, ok } = await timedRequest(pool, own, body);
      if (!ok) errors += 1;
      latencies.push(ms);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { latencies, seconds, errors };
}

/** One request at a time with a pause before each: every call reaches a process that was idle. */
export async function runPaced(
  target: Target,
  body: string,
  requests: number,
  pauseMs: number,
): Promise<LoadResult> {
  const pool = new Pool(target.origin, { connections: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  for (let i = 0; i < requests; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    const { ms, ok } = await timedRequest(pool, target, body);
    if (!ok) errors += 1;
    latencies.push(ms);
  }
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { latencies, seconds, errors };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

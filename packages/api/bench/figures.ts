// Small helpers the bench scripts share: quantiles and millisecond formatting.
export const PASSWORD = "bench passphrase 0123456789";

export const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

export const ms = (v: number) => `${v.toFixed(1)} ms`;

/** Runs `call` `times` times one after another; returns sorted durations in ms. */
export async function timed(times: number, call: () => Promise<unknown>): Promise<number[]> {
  const durations: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await call();
    durations.push(performance.now() - start);
  }
  return durations.sort((x, y) => x - y);
}

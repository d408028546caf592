// When a failed delivery is tried again. Exponential backoff over about an hour: the first
// attempt, then 7 retries after 30 s, 1, 2, 4, 8, 16 and 30 minutes (≈ 61.5 minutes in all);
// after the last one the delivery is FAILED and stays visible for a manual redelivery.
// Jitter (±10 %) spreads the retries of many deliveries that failed together (a receiver
// outage) so they do not all come back in the same second.

export const RETRY_DELAYS_MS: readonly number[] = [
  30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_800_000,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const JITTER = 0.1;

/**
 * The delay before the next attempt after `attemptsMade` failed attempts, or null when the
 * schedule is used up. `random` returns [0, 1) and is injectable so tests are deterministic.
 */
export function nextRetryDelayMs(
  attemptsMade: number,
  random: () => number = Math.random,
): number | null {
  const base = RETRY_DELAYS_MS[attemptsMade - 1];
  if (base === undefined) return null;
  return Math.round(base * (1 + JITTER * (2 * random() - 1)));
}

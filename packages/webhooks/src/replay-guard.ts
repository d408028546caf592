// A timestamped signature stays valid for the whole tolerance window, so a captured request
// could be replayed within those minutes. The guard remembers every signature it accepted
// until its window has passed and refuses a second use. It lives in the process's memory:
// with several web processes a replay could land on another one, which is acceptable for
// push webhooks (a duplicate only triggers an idempotent sync) and is why outbound receivers
// are told to de-duplicate on SecondShift-Delivery.

export interface ReplayGuard {
  /** True the first time `key` is seen within its window; false on any later use. */
  firstUse(key: string, now?: Date): boolean;
  readonly size: number;
}

export function createReplayGuard(options: {
  windowSeconds: number;
  maxEntries?: number;
}): ReplayGuard {
  const windowMs = options.windowSeconds * 1000;
  const maxEntries = options.maxEntries ?? 10_000;
  // Insertion order is expiry order (same window for all), so pruning stops at the first live one.
  const seen = new Map<string, number>();

  function prune(nowMs: number) {
    for (const [key, expiresAt] of seen) {
      if (expiresAt > nowMs && seen.size <= maxEntries) break;
      seen.delete(key);
    }
  }

  return {
    firstUse(key, now = new Date()) {
      const nowMs = now.getTime();
      prune(nowMs);
      const expiresAt = seen.get(key);
      if (expiresAt !== undefined && expiresAt > nowMs) return false;
      seen.set(key, nowMs + 2 * windowMs);
      return true;
    },
    get size() {
      return seen.size;
    },
  };
}

// One shared LISTEN connection per web process for live run transcripts. Every inserted
// RunEvent notifies channel `secondshift_run_events` (a trigger, see the run_event_notify
// migration) with "<runId>:<seq>"; this fans the notification out to the subscribers of that
// run. A notification only says "read again": subscribers re-read the stored events, so a
// lost notification can delay an event but never drop or duplicate one. When the connection
// drops, it reconnects with backoff and then wakes every subscriber, which re-reads from its
// last sent seq — events written while the connection was down are not missed.
// The same connection LISTENs for access changes (a member removed, a session ended:
// `notifyAccessChanged` in @secondshift/db), so open streams re-check their viewer at once; a
// reconnect wakes those watchers too (a change may have been missed).
import { ACCESS_CHANGES_CHANNEL } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import pg from "pg";

export const RUN_EVENTS_CHANNEL = "secondshift_run_events";

export interface RunEventWatch {
  /** Resolves at the next notification for the run (at once if one came since the last call). */
  next(signal?: AbortSignal): Promise<void>;
  close(): void;
}

export interface RunEventListener {
  /** Starts watching one run; watch before the first read, so no notification falls between. */
  watch(runId: string): RunEventWatch;
  /** Wakes when the user's access may have changed (membership, role, session). */
  watchAccess(userId: string): RunEventWatch;
  /**
   * A counter that grows with every notification for the run (and every reconnect): a read
   * started at generation g saw every commit notified before it, so readers of the same
   * generation may share one read (see transcript.ts).
   */
  generation(runId: string): number;
  close(): Promise<void>;
}

export interface RunEventListenerOptions {
  connectionString: string;
  logger: Logger;
  /** Reconnect delays grow from the first to the last (milliseconds). */
  backoffMs?: { first: number; max: number };
}

/** A coalescing wake-up flag: notifications while nobody waits are remembered as one. */
class Watch implements RunEventWatch {
  private pending = false;
  private waiter: (() => void) | null = null;

  constructor(private readonly onClose: () => void) {}

  wake(): void {
    this.pending = true;
    this.waiter?.();
  }

  next(signal?: AbortSignal): Promise<void> {
    if (this.pending || signal?.aborted) {
      this.pending = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        this.waiter = null;
        this.pending = false;
        signal?.removeEventListener("abort", done);
        resolve();
      };
      this.waiter = done;
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  close(): void {
    this.waiter?.();
    this.onClose();
  }
}

export async function startRunEventListener(
  options: RunEventListenerOptions,
): Promise<RunEventListener> {
  const backoff = options.backoffMs ?? { first: 100, max: 5_000 };
  const watches = new Map<string, Set<Watch>>();
  const accessWatches = new Map<string, Set<Watch>>();
  let client: pg.Client | null = null;
  let closed = false;
  let delay = backoff.first;
  let retryTimer: NodeJS.Timeout | undefined;

  // One counter for every generation handed out, so a run's generation never repeats (also
  // after its last watcher left and a new one came).
  let counter = 0;
  const generations = new Map<string, number>();

  function wake(runId: string) {
    const set = watches.get(runId);
    if (!set) return;
    generations.set(runId, ++counter);
    set.forEach((w) => w.wake());
  }
  const wakeAll = () => {
    [...watches.keys()].forEach(wake);
    accessWatches.forEach((set) => set.forEach((w) => w.wake()));
  };

  function onNotification(message: pg.Notification) {
    if (message.channel === ACCESS_CHANGES_CHANNEL) {
      if (message.payload) accessWatches.get(message.payload)?.forEach((w) => w.wake());
      return;
    }
    const runId = message.payload?.split(":")[0];
    if (runId) wake(runId);
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: options.connectionString, keepAlive: true });
    next.on("notification", onNotification);
    next.on("error", (err) => dropped(next, err));
    next.on("end", () => dropped(next, null));
    try {
      await next.connect();
      await next.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
      await next.query(`LISTEN ${ACCESS_CHANGES_CHANNEL}`);
    } catch (err) {
      await next.end().catch(() => undefined);
      throw err;
    }
    if (closed) {
      await next.end().catch(() => undefined);
      return;
    }
    client = next;
    delay = backoff.first;
  }

  function dropped(which: pg.Client, err: Error | null) {
    if (closed || client !== which) return;
    client = null;
    options.logger.warn({ err }, "run event listener lost its database connection; reconnecting");
    which.end().catch(() => undefined);
    scheduleReconnect();
  }

  function scheduleReconnect() {
    retryTimer = setTimeout(() => {
      connect().then(
        // Events inserted while we were not listening: every subscriber re-reads.
        wakeAll,
        (err: unknown) => {
          options.logger.warn({ err, retryInMs: delay }, "run event listener reconnect failed");
          delay = Math.min(delay * 2, backoff.max);
          if (!closed) scheduleReconnect();
        },
      );
    }, delay);
  }

  await connect();
  return {
    watch(runId) {
      let set = watches.get(runId);
      if (!set) {
        set = new Set<Watch>();
        watches.set(runId, set);
        generations.set(runId, ++counter);
      }
      const runWatches = set;
      const w: Watch = new Watch(() => {
        runWatches.delete(w);
        if (runWatches.size === 0 && watches.get(runId) === runWatches) {
          watches.delete(runId);
          generations.delete(runId);
        }
      });
      runWatches.add(w);
      return w;
    },
    watchAccess(userId) {
      const set = accessWatches.get(userId) ?? new Set<Watch>();
      accessWatches.set(userId, set);
      const w: Watch = new Watch(() => {
        set.delete(w);
        if (set.size === 0 && accessWatches.get(userId) === set) accessWatches.delete(userId);
      });
      set.add(w);
      return w;
    },
    generation: (runId) => generations.get(runId) ?? -1,
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      wakeAll();
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}

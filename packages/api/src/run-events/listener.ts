// One shared LISTEN connection per web process for live run transcripts. Every inserted
// RunEvent notifies channel `secondshift_run_events` (a trigger, see the run_event_notify
// migration) with "<runId>:<seq>"; this fans the notification out to the subscribers of that
// run. A notification only says "read again": subscribers re-read the stored events, so a
// lost notification can delay an event but never drop or duplicate one. When the connection
// drops, it reconnects with backoff and then wakes every subscriber, which re-reads from its
// last sent seq — events written while the connection was down are not missed.
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
  let client: pg.Client | null = null;
  let closed = false;
  let delay = backoff.first;
  let retryTimer: NodeJS.Timeout | undefined;

  const wakeAll = () => watches.forEach((set) => set.forEach((w) => w.wake()));

  function onNotification(message: pg.Notification) {
    const runId = message.payload?.split(":")[0];
    if (runId) watches.get(runId)?.forEach((w) => w.wake());
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: options.connectionString, keepAlive: true });
    next.on("notification", onNotification);
    next.on("error", (err) => dropped(next, err));
    next.on("end", () => dropped(next, null));
    try {
      await next.connect();
      await next.query(`LISTEN ${RUN_EVENTS_CHANNEL}`);
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
      const set = watches.get(runId) ?? new Set<Watch>();
      watches.set(runId, set);
      const w: Watch = new Watch(() => {
        set.delete(w);
        if (set.size === 0 && watches.get(runId) === set) watches.delete(runId);
      });
      set.add(w);
      return w;
    },
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      wakeAll();
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}

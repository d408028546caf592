// The worker's delivery loop: call deliverDue every few seconds. Polling the database (rather
// than BullMQ delayed jobs) keeps the retry schedule in nextAttemptAt, which survives worker
// and Redis restarts; several workers can poll at once because claims are conditional updates.
import type { Db } from "@secondshift/db";
import { deliverDue, type DeliveryDeps, type DeliverySummary } from "./deliver.ts";

export interface DeliveryProcessor {
  /** One pass now (skipped, returning null, if a pass is already running in this process). */
  tick(now?: Date): Promise<DeliverySummary | null>;
  start(): void;
  /** Stops the interval and waits for a running pass to finish. */
  stop(): Promise<void>;
}

export function createDeliveryProcessor(
  db: Db,
  deps: DeliveryDeps,
  options: { intervalMs?: number; clock?: () => Date; limit?: number } = {},
): DeliveryProcessor {
  const clock = options.clock ?? (() => new Date());
  let running: Promise<DeliverySummary> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const tick = async (now?: Date) => {
    if (running !== null) return null;
    running = deliverDue(db, deps, {
      now: now ?? clock(),
      ...(options.limit === undefined ? {} : { limit: options.limit }),
    });
    try {
      return await running;
    } finally {
      running = null;
    }
  };

  return {
    tick,
    start() {
      if (timer !== null) return;
      timer = setInterval(() => {
        tick().catch((error: unknown) =>
          deps.logger.error({ err: error }, "webhook delivery pass failed"),
        );
      }, options.intervalMs ?? 5_000);
      timer.unref();
    },
    async stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
    },
  };
}

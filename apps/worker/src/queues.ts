// The BullMQ queues (schedules, runs, repository sync, outputs) on the worker's Redis.
import {
  createOutputQueue,
  createRunQueue,
  createScheduleQueue,
  createSyncQueue,
} from "@secondshift/scheduler";
import type { WorkerSettings } from "./settings.ts";

export function buildQueues(settings: WorkerSettings) {
  const connection = { url: settings.redis.url, maxRetriesPerRequest: null };
  const queueOptions = {
    connection,
    ...(settings.redis.prefix ? { prefix: settings.redis.prefix } : {}),
  };
  const scheduleQueue = createScheduleQueue(queueOptions);
  const runQueue = createRunQueue(queueOptions);
  const syncQueue = createSyncQueue(queueOptions);
  const outputQueue = createOutputQueue(queueOptions);
  return {
    queueOptions,
    scheduleQueue,
    runQueue,
    syncQueue,
    outputQueue,
    close: () =>
      Promise.all([
        scheduleQueue.close(),
        runQueue.close(),
        syncQueue.close(),
        outputQueue.close(),
      ]),
  };
}

export type WorkerQueues = ReturnType<typeof buildQueues>;

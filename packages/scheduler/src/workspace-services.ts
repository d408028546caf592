// The queue mechanisms the domain layer's use cases call through their context (run now,
// pause / resume, sync now). The domain decides and audits; this only moves work onto queues.
import type { WorkspaceServices } from "@secondshift/domain";
import type { Db } from "@secondshift/db";
import type { Logger } from "@secondshift/logging";
import { addOutputToQueue, type OutputQueue } from "./output-queue.ts";
import { addRunToQueue, type RunQueue, type ScheduleQueue } from "./queues.ts";
import { requestSync, type SyncQueue } from "./sync-queue.ts";
import { syncSchedules } from "./sync-schedules.ts";

export interface WorkspaceQueues {
  db: Db;
  runQueue: RunQueue;
  scheduleQueue: ScheduleQueue;
  syncQueue: SyncQueue;
  /** Where an owner's approved output goes; without it, approvals wait for recovery. */
  outputQueue?: OutputQueue;
  logger?: Logger;
}

export function createWorkspaceServices(queues: WorkspaceQueues): WorkspaceServices {
  const { db, runQueue, scheduleQueue, syncQueue, outputQueue, logger } = queues;
  return {
    ...(outputQueue
      ? { enqueueOutputApply: (output) => addOutputToQueue(outputQueue, output) }
      : {}),
    enqueueRun: (run) => addRunToQueue(runQueue, run),
    syncSchedules: async (workspaceId) => {
      await syncSchedules(db, scheduleQueue, logger ? { workspaceId, logger } : { workspaceId });
    },
    requestSync: (target) => requestSync(syncQueue, target),
  };
}

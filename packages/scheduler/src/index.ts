export { syncSchedules } from "./sync-schedules.ts";
export type { SyncSchedulesOptions, SyncSchedulesResult } from "./sync-schedules.ts";
export { handleFire, SCHEDULE_MISSED_ACTION, SCHEDULE_SKIPPED_ACTION } from "./fire.ts";
export type { Fire, FireOutcome, SkipReason } from "./fire.ts";
export { createScheduleWorker, fireTime } from "./schedule-worker.ts";
export type { ScheduleWorkerOptions } from "./schedule-worker.ts";
export { createRunQueueWorker, EXECUTOR_FAILED_ERROR, NO_RESULT_ERROR } from "./run-worker.ts";
export type { ExecuteContext, RunQueueWorkerOptions } from "./run-worker.ts";
export { recoverLostRuns, requeueQueuedRuns, WORKER_LOST_ERROR } from "./recover.ts";
export type { LostRun, RecoverLostRunsOptions, RequeueOptions } from "./recover.ts";
export { nextFireTimes, validateSchedule, isValidTimeZone } from "./cron.ts";
export {
  addRunToQueue,
  createRunQueue,
  createScheduleQueue,
  schedulerIdForJob,
  RUN_QUEUE,
  SCHEDULE_QUEUE,
} from "./queues.ts";
export type {
  FireJobData,
  QueueConnection,
  RunJobData,
  RunQueue,
  ScheduleQueue,
} from "./queues.ts";
export { createSyncQueue, createSyncWorker, requestSync, SYNC_QUEUE } from "./sync-queue.ts";
export type { SyncJobData, SyncQueue, SyncWorkerOptions } from "./sync-queue.ts";
export {
  addOutputToQueue,
  createOutputQueue,
  createOutputWorker,
  OUTPUT_QUEUE,
  outputJobId,
  requeueOutputs,
} from "./output-queue.ts";
export type { OutputJobData, OutputQueue, OutputWorkerOptions } from "./output-queue.ts";
export { createWorkspaceServices } from "./workspace-services.ts";
export { registerQueueMetrics } from "./metrics.ts";
export type { QueueMetricsSources } from "./metrics.ts";
export type { WorkspaceQueues } from "./workspace-services.ts";

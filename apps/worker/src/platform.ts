// Wires the worker's packages together from small builders: the tool broker (outbound guard,
// connectors, broker), sandboxes and the reaper, queues, the run executor, repository sync,
// lost-run recovery, webhook delivery, and the processors that start and stop them. The entry
// point (main.ts) and the end-to-end suite both build it.
import { randomUUID } from "node:crypto";
import { executeRun } from "@secondshift/runs";
import { registerQueueMetrics } from "@secondshift/scheduler";
import { buildDelivery } from "./delivery.ts";
import { buildEventScreen } from "./event-screen.ts";
import { buildExecutorDeps, heartbeatInterval } from "./executor.ts";
import { buildProcessors } from "./processors.ts";
import { buildOutputs } from "./outputs.ts";
import { buildQueues } from "./queues.ts";
import { buildRecovery } from "./recovery.ts";
import { buildRepoSync } from "./repo-sync.ts";
import { buildSandboxes } from "./sandboxes.ts";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";
import { buildToolBroker } from "./tool-broker.ts";

export type { WorkerServices } from "./services.ts";

export type WorkerPlatform = ReturnType<typeof createWorkerPlatform>;

export function createWorkerPlatform(settings: WorkerSettings, services: WorkerServices) {
  const workerId = `worker-${randomUUID().slice(0, 8)}`;
  const tools = buildToolBroker(settings, services);
  const { docker, sandboxes, reaper } = buildSandboxes(settings, services);
  const queues = buildQueues(settings);
  if (services.metrics) {
    const { runQueue, syncQueue, scheduleQueue } = queues;
    const sources = { runs: runQueue, sync: syncQueue, schedules: scheduleQueue };
    registerQueueMetrics(services.metrics, { db: services.db, queues: sources });
  }
  const outputs = buildOutputs(settings, services, { tools, queues });
  const executorDeps = buildExecutorDeps(settings, services, {
    workerId,
    sandboxes,
    tools,
    enqueueOutputApply: outputs.enqueueOutputApply,
  });
  const delivery = buildDelivery(settings, services, tools.client);
  const repoSync = buildRepoSync(settings, services, queues, tools.mintInstallationToken);
  const recover = buildRecovery(settings, services, { reaper, queues });
  // Reads executorDeps at call time: the bench swaps its source and sandboxes to time them.
  const run = (runId: string) => executeRun(executorDeps, runId);
  const screenRun = buildEventScreen(settings, services, tools);
  const processors = buildProcessors(settings, {
    db: services.db,
    logger: services.logger,
    workerId,
    queues,
    delivery,
    reaper,
    heartbeatMs: heartbeatInterval(settings),
    executeRun: run,
    screenRun,
    ...repoSync,
    recover,
    outputs,
    closeTools: tools.close,
  });
  return {
    workerId,
    db: services.db,
    docker,
    broker: tools.broker,
    connectors: tools.connectors,
    sandboxes,
    scheduleQueue: queues.scheduleQueue,
    runQueue: queues.runQueue,
    syncQueue: queues.syncQueue,
    outputQueue: queues.outputQueue,
    outputs,
    executorDeps,
    delivery,
    reaper,
    ...repoSync,
    recover,
    executeRun: run,
    screenRun,
    start: processors.start,
    stop: processors.stop,
    setClaiming: processors.setClaiming,
  };
}

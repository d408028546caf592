// Lost-run recovery: runs whose worker stopped sending heartbeats are failed, their tokens
// revoked, their sandboxes reaped and their reports sent; runs stuck in QUEUED are requeued, and
// outputs of ended runs left READY, APPROVED or APPLYING (a crash) go back on the outputs queue.
import { revokeRunTokens } from "@secondshift/runs";
import type { Reaper } from "@secondshift/sandbox";
import { recoverLostRuns, requeueOutputs, requeueQueuedRuns } from "@secondshift/scheduler";
import { enqueueReports } from "@secondshift/webhooks";
import type { WorkerQueues } from "./queues.ts";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";

export function buildRecovery(
  settings: WorkerSettings,
  services: WorkerServices,
  parts: { reaper: Reaper; queues: Pick<WorkerQueues, "runQueue" | "outputQueue"> },
): () => Promise<void> {
  const { db, logger } = services;
  return async function recover(): Promise<void> {
    await recoverLostRuns(db, {
      heartbeatTimeoutMs: settings.heartbeatTimeoutMs,
      logger,
      onLost: async (run) => {
        await revokeRunTokens(db, run);
        await parts.reaper.reapOnce();
        await enqueueReports(db, { workspaceId: run.workspaceId, runId: run.id }).catch(
          () => undefined,
        );
      },
    });
    await requeueQueuedRuns(db, parts.queues.runQueue, { olderThanMs: 60_000 });
    await requeueOutputs(db, parts.queues.outputQueue);
  };
}

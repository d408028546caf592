// Results that leave runs (issue #24): the outputs queue's worker applies each output after its
// run has ended (tokens through the same minter and netguard client as repository fetches),
// and a periodic sweep expires held outputs past the operator's hold limit. An output applied or
// failed is reported to the workspace's webhooks (output.applied / output.failed).
import { outboundFromNetguard } from "@secondshift/connectors";
import {
  applyOutput,
  createOutputMetrics,
  expireHeldOutputs,
  type ApplyDeps,
} from "@secondshift/outputs";
import { addOutputToQueue, createOutputWorker } from "@secondshift/scheduler";
import { enqueueOutputEvents } from "@secondshift/webhooks";
import type { WorkerQueues } from "./queues.ts";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";
import type { ToolBroker } from "./tool-broker.ts";

export function buildOutputs(
  settings: WorkerSettings,
  services: WorkerServices,
  parts: { tools: ToolBroker; queues: Pick<WorkerQueues, "outputQueue" | "queueOptions"> },
) {
  const { db, logger, masker } = services;
  const metrics = services.metrics ? createOutputMetrics(services.metrics) : undefined;
  const deps: ApplyDeps = {
    db,
    keyring: settings.keyring,
    mintToken: parts.tools.mintInstallationToken,
    fetch: outboundFromNetguard(parts.tools.client),
    userAgent: "secondshift/0.1.0",
    masker,
    // "output.applied" / "output.failed" to the webhooks that take the run's report, once per
    // webhook and output; if this throws, the queue's retry calls it again.
    onSettled: async (settled) => {
      metrics?.settled.inc({ kind: settled.kind, state: settled.state });
      const { created } = await enqueueOutputEvents(db, {
        workspaceId: settled.workspaceId,
        outputId: settled.outputId,
      });
      if (created > 0) logger.info({ outputId: settled.outputId, created }, "output events queued");
    },
  };
  const apply = (output: { outputId: string }) => applyOutput(deps, output);
  return {
    applyDeps: deps,
    apply,
    enqueueOutputApply: (output: { outputId: string; workspaceId: string }) =>
      addOutputToQueue(parts.queues.outputQueue, output),
    startOutputWorker: () =>
      createOutputWorker({
        ...parts.queues.queueOptions,
        logger,
        apply,
        queueLockMs: settings.queueLockMs,
      }),
    expireHeldOutputs: async () => {
      const expired = await expireHeldOutputs(db, { holdDays: settings.outputs.holdDays });
      if (expired > 0) logger.info({ expired }, "held outputs expired");
    },
  };
}

export type WorkerOutputs = ReturnType<typeof buildOutputs>;

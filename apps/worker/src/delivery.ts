// Webhook delivery: signed reports of finished runs, sent through the outbound guard.
import type { OutboundClient } from "@secondshift/netguard";
import { runPagePath } from "@secondshift/vocabulary";
import { createDeliveryProcessor, createWebhookMetrics } from "@secondshift/webhooks";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";

export function buildDelivery(
  settings: WorkerSettings,
  services: WorkerServices,
  client: OutboundClient,
) {
  const { db, masker, logger } = services;
  const publicUrl = settings.publicUrl.replace(/\/$/, "");
  return createDeliveryProcessor(
    db,
    {
      keyring: settings.keyring,
      client,
      masker,
      logger,
      runLink: (run) => `${publicUrl}${runPagePath(run.workspaceId, run.id)}`,
      ...(services.metrics ? { metrics: createWebhookMetrics(services.metrics) } : {}),
    },
    { intervalMs: settings.intervals.deliveryMs },
  );
}

// The sandbox manager on the configured Docker engine, and the reaper that removes sandboxes
// whose run is over or past its deadline.
import { createSandboxManager, createSandboxMetrics } from "@secondshift/sandbox";
import { isActive } from "@secondshift/vocabulary";
import { createDockerClient } from "./docker.ts";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";

export function buildSandboxes(settings: WorkerSettings, services: WorkerServices) {
  const { db, logger } = services;
  const docker = services.docker ?? createDockerClient(settings.dockerHost);
  const sandboxes = createSandboxManager({
    docker,
    ...settings.sandbox,
    production: settings.production,
    logger,
    ...(services.metrics ? { metrics: createSandboxMetrics(services.metrics) } : {}),
  });
  // A sandbox whose run this database does not know belongs to another installation on the same
  // Docker engine (or to a deleted run): it is left to its deadline label, never reaped early.
  // One whose run has ended (a final status) is reaped.
  const reaper = sandboxes.createReaper(async (runId) => {
    const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
    return run === null || isActive(run.status);
  });
  return { docker, sandboxes, reaper };
}

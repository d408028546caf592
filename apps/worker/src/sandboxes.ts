// The sandbox manager on the configured Docker engine, and the reaper that removes sandboxes
// whose run is over or past its deadline.
import { createSandboxManager, createSandboxMetrics } from "@secondshift/sandbox";
import { isActive } from "@secondshift/vocabulary";
import { createDockerClient } from "./docker.ts";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";

export function buildSandboxes(settings: WorkerSettings, services: WorkerServices) {
  const { db, logger } = services;
  const docker = services.docker ?? createDockerClient(settings.docker);
  const sandboxes = createSandboxManager({
    docker,
    ...settings.sandbox,
    installationId: settings.installation.id,
    previousInstallationIds: settings.installation.previousIds,
    production: settings.production,
    logger,
    ...(services.metrics ? { metrics: createSandboxMetrics(services.metrics) } : {}),
  });
  // The reaper sees only this installation's sandboxes (their label); another installation's on
  // the same engine are never touched. A sandbox whose run this database does not know (a
  // deleted run) is left to its deadline label; one whose run has ended is reaped.
  const reaper = sandboxes.createReaper(async (runId) => {
    const run = await db.run.findUnique({ where: { id: runId }, select: { status: true } });
    return run === null || isActive(run.status);
  });
  return { docker, sandboxes, reaper };
}

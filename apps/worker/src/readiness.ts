// The worker's /healthz and /readyz (its only HTTP endpoints) and the gate they drive: the
// worker claims runs only while every check passes (C13: no runsc, no sandbox started), and
// stops claiming when one fails (database, Redis or Docker gone), until it passes again.
import type { Keyring } from "@secondshift/crypto";
import type { Logger } from "@secondshift/logging";
import type { Pool } from "@secondshift/db";
import { sandboxReadinessChecks } from "@secondshift/sandbox";
import {
  createReadiness,
  databaseChecks,
  keyCheck,
  redisCheck,
  startHealthServer,
  type HealthServer,
  type ReadinessReport,
} from "@secondshift/service";
import type { WorkerPlatform } from "./platform.ts";
import type { WorkerSettings } from "./settings.ts";

/** How often the gate re-checks (a /readyz request checks on its own, at once). */
const GATE_INTERVAL_MS = 5_000;

export interface ReadinessDeps {
  platform: WorkerPlatform;
  settings: WorkerSettings;
  pool: Pool;
  keyring: Keyring;
  logger: Logger;
}

export function workerReadiness(deps: ReadinessDeps) {
  const { platform, settings } = deps;
  return createReadiness([
    ...databaseChecks(deps.pool),
    // Any round trip on the queues' own connection proves Redis answers them.
    redisCheck({ ping: () => platform.runQueue.getWaitingCount() }),
    keyCheck(deps.keyring),
    ...sandboxReadinessChecks(platform.docker, {
      ...settings.sandbox,
      production: settings.production,
    }),
  ]);
}

/**
 * The worker's health endpoints and claim gate. `serve(port)` (after `platform.start`) listens
 * and opens / closes the run queue as readiness changes; `close()` stops both.
 */
export function createWorkerHealth(deps: ReadinessDeps) {
  const readiness = workerReadiness(deps);
  let server: HealthServer | undefined;
  let timer: NodeJS.Timeout | undefined;
  let claiming: boolean | undefined;
  let stopped = false;
  const apply = async (report: ReadinessReport) => {
    const ready = report.status === "ready";
    if (stopped || ready === claiming) return;
    claiming = ready;
    await deps.platform.setClaiming(ready);
    const failed = report.checks.filter((c) => !c.ok);
    if (ready) deps.logger.info("worker ready: claiming runs");
    else deps.logger.warn({ failed }, "worker not ready: claiming no runs until it is");
  };
  const tick = () =>
    readiness
      .report()
      .then(apply)
      .catch((err: unknown) => deps.logger.error({ err }, "readiness check failed"));
  return {
    async serve(port: number): Promise<void> {
      server = await startHealthServer(port, readiness);
      deps.logger.info({ port: server.port }, "worker health endpoints listening");
      await tick();
      if (!stopped) timer = setInterval(() => void tick(), GATE_INTERVAL_MS);
    },
    async close(): Promise<void> {
      stopped = true;
      clearInterval(timer);
      await server?.close();
    },
  };
}

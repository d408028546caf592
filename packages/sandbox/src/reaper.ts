// Removes sandboxes nobody will use again: their run is over or their deadline passed. Runs at
// worker start and on an interval, so a crashed worker leaves nothing running for long.
import type Docker from "dockerode";
import type { Logger } from "@secondshift/logging";
import { LABELS } from "./types.ts";

export interface ReaperOptions {
  docker: Docker;
  /** True while the run may still use its sandbox (e.g. a database lookup of the run's status). */
  isRunActive: (runId: string) => boolean | Promise<boolean>;
  logger: Logger;
  now?: () => Date;
}

export interface Reaper {
  /** One pass; returns the ids of the containers removed. */
  reapOnce(): Promise<string[]>;
  start(intervalMs: number): void;
  stop(): void;
}

export function createReaper(options: ReaperOptions): Reaper {
  const now = options.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;

  async function reapOnce(): Promise<string[]> {
    const containers = await options.docker.listContainers({
      all: true,
      filters: { label: [`${LABELS.managed}=true`] },
    });
    const removed: string[] = [];
    for (const c of containers) {
      const runId = c.Labels[LABELS.runId] ?? "";
      const deadline = Date.parse(c.Labels[LABELS.deadline] ?? "");
      let why: string | undefined;
      if (!Number.isFinite(deadline) || deadline <= now().getTime()) why = "deadline passed";
      else if (runId === "" || !(await options.isRunActive(runId))) why = "run is over";
      if (!why) continue;
      try {
        await options.docker.getContainer(c.Id).remove({ force: true });
        removed.push(c.Id);
        options.logger.info(
          { event: "sandbox.reaped", containerId: c.Id.slice(0, 12), runId, why },
          "removed an orphaned sandbox",
        );
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode !== 404) {
          options.logger.warn(
            { event: "sandbox.reap_failed", containerId: c.Id.slice(0, 12), err: error },
            "could not remove a sandbox",
          );
        }
      }
    }
    return removed;
  }

  return {
    reapOnce,
    start(intervalMs) {
      this.stop();
      timer = setInterval(() => {
        reapOnce().catch((err: unknown) =>
          options.logger.warn({ event: "sandbox.reaper_failed", err }, "reaper pass failed"),
        );
      }, intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}

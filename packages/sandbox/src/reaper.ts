// Removes sandboxes nobody will use again: their run is over or their deadline passed. Runs at
// worker start and on an interval, so a crashed worker leaves nothing running for long.
// Several installations may share one engine: a sandbox is only ever judged by its own
// installation (the installation label), since another installation's runs are not in this
// one's database. A sandbox without that label (made before the label existed) belongs to no
// one: it is removed only once its deadline passed, as every installation did then.
import type Docker from "dockerode";
import type { Logger } from "@secondshift/logging";
import { LABELS } from "./types.ts";

export interface ReaperOptions {
  docker: Docker;
  /** The installation's ids (current first): only sandboxes labelled with one are reaped. */
  installationIds: readonly string[];
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
      const why = await reason(c.Labels);
      if (!why) continue;
      const runId = c.Labels[LABELS.runId] ?? "";
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

  async function reason(labels: Record<string, string>): Promise<string | undefined> {
    const installation = labels[LABELS.installation];
    const ours = installation !== undefined && options.installationIds.includes(installation);
    if (installation !== undefined && !ours) return undefined; // another installation's
    const deadline = Date.parse(labels[LABELS.deadline] ?? "");
    if (!Number.isFinite(deadline) || deadline <= now().getTime()) return "deadline passed";
    if (!ours) return undefined; // unlabelled: whose run it was is unknown, wait for the deadline
    const runId = labels[LABELS.runId] ?? "";
    if (runId === "" || !(await options.isRunActive(runId))) return "run is over";
    return undefined;
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

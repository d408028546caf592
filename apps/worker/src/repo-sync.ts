// Repository sync: fetch each repository's config, then resync its workspace's schedules (a
// changed request may stop a schedule).
import { createConfigReader } from "@secondshift/config";
import { fetchByteCap, syncRepository, type MintInstallationToken } from "@secondshift/repo-sync";
import { syncSchedules } from "@secondshift/scheduler";
import type { WorkerQueues } from "./queues.ts";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";

const CONFIG_READ_DEADLINE_MS = 2_000;

export function buildRepoSync(
  settings: WorkerSettings,
  services: WorkerServices,
  queues: Pick<WorkerQueues, "scheduleQueue">,
  mintInstallationToken: MintInstallationToken,
) {
  const { db, logger, masker } = services;
  const { scheduleQueue } = queues;
  // A file's parse past this is refused; the figures in docs/NOTES.md are well under it.
  const configReader = createConfigReader({ deadlineMs: CONFIG_READ_DEADLINE_MS });
  const syncDeps = {
    configReader,
    keyring: settings.keyring,
    policy: { outbound: settings.outbound, allowFileRemotes: settings.allowFileRemotes },
    limits: settings.repoConfig,
    logger,
    masker,
    mintInstallationToken,
    workDir: settings.workDir,
    // A repository too large to run is not downloaded whole to read its config either.
    maxFetchBytes: fetchByteCap(settings.repository.maxBytes),
  };

  async function syncAllRepositories(): Promise<void> {
    for (const repo of await db.repository.findMany({ select: { id: true, workspaceId: true } })) {
      await syncRepository(db, syncDeps, {
        workspaceId: repo.workspaceId,
        repositoryId: repo.id,
      }).catch((err: unknown) =>
        logger.warn({ err, repositoryId: repo.id }, "repository sync failed"),
      );
    }
    await syncSchedules(db, scheduleQueue, { logger });
  }

  /** One repository, then its workspace's schedules. */
  async function syncOne(target: { workspaceId: string; repositoryId: string }): Promise<void> {
    const result = await syncRepository(db, syncDeps, target);
    if (result.status === "failed")
      logger.warn(
        { repositoryId: target.repositoryId, reason: result.reason },
        "repository sync failed",
      );
    await syncSchedules(db, scheduleQueue, { workspaceId: target.workspaceId, logger });
  }

  return { syncDeps, syncAllRepositories, syncOne, closeConfigReader: () => configReader.close() };
}

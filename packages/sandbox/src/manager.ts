// Creates sandboxes from the operator's settings. The only entry point of the package that starts
// containers, so the runtime check (C13) cannot be skipped.
import { randomBytes } from "node:crypto";
import { AppError } from "@secondshift/errors";
import { buildContainerSpec, HELPER_PROCESS_HEADROOM } from "./container-spec.ts";
import { assertRuntimeUsable } from "./runtime-check.ts";
import { createReaper, type Reaper } from "./reaper.ts";
import { Sandbox } from "./sandbox.ts";
import type { CreateSandboxOptions, SandboxManagerConfig } from "./types.ts";

export interface SandboxManager {
  create(options: CreateSandboxOptions): Promise<Sandbox>;
  createReaper(isRunActive: (runId: string) => boolean | Promise<boolean>): Reaper;
}

function validateConfig(config: SandboxManagerConfig): void {
  for (const id of [config.installationId, ...(config.previousInstallationIds ?? [])]) {
    if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/.test(id))
      throw new AppError(
        "BAD_REQUEST",
        "The installation id must be 1 to 63 letters, digits, '.', '_' or '-' (SECONDSHIFT_INSTALLATION_ID).",
        { reason: "SANDBOX_CONFIG_INVALID" },
      );
  }
  for (const [key, value] of Object.entries(config.limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new AppError(
        "BAD_REQUEST",
        `Sandbox limit ${key} must be a positive integer (got ${String(value)}).`,
        {
          reason: "SANDBOX_CONFIG_INVALID",
        },
      );
    }
  }
}

export function createSandboxManager(config: SandboxManagerConfig): SandboxManager {
  validateConfig(config);
  const { docker, logger } = config;
  return {
    async create(options) {
      const stopTimer = config.metrics?.startSeconds.startTimer({ runtime: config.runtime });
      try {
        const sandbox = await createStarted(options);
        stopTimer?.({ outcome: "started" });
        return sandbox;
      } catch (error) {
        stopTimer?.({ outcome: "failed" });
        throw error;
      }
    },
    createReaper(isRunActive) {
      const installationIds = [config.installationId, ...(config.previousInstallationIds ?? [])];
      return createReaper({ docker, installationIds, isRunActive, logger });
    },
  };

  async function createStarted(options: CreateSandboxOptions): Promise<Sandbox> {
    await assertRuntimeUsable(docker, config, logger);
    const name = `secondshift-${options.runId.replace(/[^a-zA-Z0-9_.-]/g, "-").slice(0, 40)}-${randomBytes(4).toString("hex")}`;
    const spec = buildContainerSpec({
      ...options,
      image: config.image,
      runtime: config.runtime,
      limits: config.limits,
      name,
      installationId: config.installationId,
    });
    let id: string;
    try {
      id = (await docker.createContainer(spec)).id;
    } catch (cause) {
      const status = (cause as { statusCode?: number }).statusCode;
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        status === 404
          ? `The sandbox image ${config.image} is not on the Docker engine. Build it (scripts/build-sandbox-image.sh ${config.image}) or docker build -f docker/sandbox/Dockerfile.`
          : "The Docker engine refused to create the sandbox container; see the worker log.",
        { reason: status === 404 ? "SANDBOX_IMAGE_MISSING" : "SANDBOX_CREATE_FAILED", cause },
      );
    }
    try {
      await docker.getContainer(id).start();
    } catch (cause) {
      await docker
        .getContainer(id)
        .remove({ force: true })
        .catch(() => undefined);
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        `The sandbox container did not start under ${config.runtime}; see the worker and dockerd logs.`,
        {
          reason: "SANDBOX_START_FAILED",
          cause,
        },
      );
    }
    logger.info(
      {
        event: "sandbox.created",
        runId: options.runId,
        containerId: id.slice(0, 12),
        runtime: config.runtime,
      },
      "sandbox created",
    );
    return new Sandbox({
      docker,
      id,
      runId: options.runId,
      nproc: config.runtime === "runsc" ? config.limits.pidsLimit : 0,
      memoryBytes: config.limits.memoryBytes,
      logger,
    });
  }
}

export { HELPER_PROCESS_HEADROOM };

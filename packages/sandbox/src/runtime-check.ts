// Refuses to start sandboxes without gVisor in production (C13), and makes the runc fallback
// loud: it is a development convenience that removes the kernel boundary between runs and host.
import { AppError } from "@secondshift/errors";
import type { Logger } from "@secondshift/logging";
import type { SandboxRuntime } from "./types.ts";

export const RUNSC_INSTALL_HELP =
  "Install gVisor (Debian/Ubuntu: `apt-get install runsc`) and register it with Docker in " +
  '/etc/docker/daemon.json: {"runtimes":{"runsc":{"path":"/usr/bin/runsc","runtimeArgs":["--network=none","--oci-seccomp"]}}}, ' +
  "then restart dockerd (or send it SIGHUP) and check that `docker info` lists runsc under Runtimes. " +
  "See packages/sandbox/README.md.";

export interface RuntimeCheckInput {
  /** `Runtimes` from the engine's /info (dockerode `docker.info()`). */
  registeredRuntimes: readonly string[];
  runtime: SandboxRuntime;
  production: boolean;
  allowRunc: boolean;
}

/** Throws when the configured runtime must not or cannot be used. Pure, so it is tested directly. */
export function checkRuntime(input: RuntimeCheckInput): void {
  if (input.runtime === "runc") {
    if (input.production) {
      throw new AppError(
        "PRECONDITION_FAILED",
        `Sandboxes must run under gVisor (runsc) in production; runc is refused. Set the sandbox runtime to runsc. ${RUNSC_INSTALL_HELP}`,
        { reason: "SANDBOX_RUNC_IN_PRODUCTION" },
      );
    }
    if (!input.allowRunc) {
      throw new AppError(
        "PRECONDITION_FAILED",
        "The sandbox runtime is runc but runc was not allowed. Use runsc, or (development only) allow runc explicitly.",
        { reason: "SANDBOX_RUNC_NOT_ALLOWED" },
      );
    }
    return;
  }
  if (!input.registeredRuntimes.includes("runsc")) {
    throw new AppError(
      "PRECONDITION_FAILED",
      `The Docker engine has no runtime named runsc, so sandboxes cannot start. ${RUNSC_INSTALL_HELP}`,
      { reason: "SANDBOX_RUNSC_NOT_REGISTERED" },
    );
  }
}

export interface RuntimeInfoSource {
  info(): Promise<unknown>;
}

export async function registeredRuntimes(docker: RuntimeInfoSource): Promise<string[]> {
  let info: unknown;
  try {
    info = await docker.info();
  } catch (cause) {
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      "The Docker engine does not answer. Check that dockerd runs and that the worker can reach its socket (DOCKER_HOST).",
      { reason: "SANDBOX_DOCKER_UNAVAILABLE", cause },
    );
  }
  const runtimes = (info as { Runtimes?: Record<string, unknown> }).Runtimes ?? {};
  return Object.keys(runtimes);
}

/** Checked before every creation (the engine may have been reconfigured since the last one). */
export async function assertRuntimeUsable(
  docker: RuntimeInfoSource,
  input: Omit<RuntimeCheckInput, "registeredRuntimes">,
  logger: Logger,
): Promise<void> {
  checkRuntime({
    ...input,
    registeredRuntimes: input.runtime === "runsc" ? await registeredRuntimes(docker) : [],
  });
  if (input.runtime === "runc") {
    logger.warn(
      { event: "sandbox.runc_in_use" },
      "SANDBOX WITHOUT gVISOR: this sandbox runs under runc, sharing the host kernel. Development only; never use this in production.",
    );
  }
}

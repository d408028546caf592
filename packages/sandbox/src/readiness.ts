// What a worker must see before it claims runs (C13): the engine answers, the configured
// runtime is usable (runsc registered; runc only where allowed), and the sandbox image is on the
// engine. Same shape as `ReadinessCheck` in @secondshift/service; the worker passes them there.
import type Docker from "dockerode";
import { checkRuntime, registeredRuntimes } from "./runtime-check.ts";
import type { SandboxManagerConfig } from "./types.ts";

export interface SandboxReadinessCheck {
  name: string;
  check(): Promise<string>;
}

type Settings = Pick<SandboxManagerConfig, "image" | "runtime" | "production" | "allowRunc">;

export function sandboxReadinessChecks(
  docker: Docker,
  settings: Settings,
): SandboxReadinessCheck[] {
  return [
    {
      name: "docker",
      async check() {
        await docker.ping().catch((error: unknown) => {
          throw new Error(
            `The Docker engine does not answer (DOCKER_HOST): ${(error as Error).message}${tlsHint(error)}`,
          );
        });
        return "the Docker engine answers";
      },
    },
    {
      name: "runtime",
      async check() {
        const runtimes = settings.runtime === "runsc" ? await registeredRuntimes(docker) : [];
        checkRuntime({ ...settings, registeredRuntimes: runtimes });
        return settings.runtime === "runsc"
          ? "runsc (gVisor) is registered with the engine"
          : "runc, allowed outside production";
      },
    },
    {
      name: "sandbox image",
      async check() {
        try {
          await docker.getImage(settings.image).inspect();
        } catch (error) {
          if ((error as { statusCode?: number }).statusCode !== 404) throw error;
          throw new Error(
            `The sandbox image ${settings.image} is not on the Docker engine. Build it (scripts/build-sandbox-image.sh ${settings.image}).`,
            { cause: error },
          );
        }
        return `${settings.image} is present`;
      },
    },
  ];
}

/** A TLS failure (remote engine, docs/DEPLOY.md section 3) says which side to look at. */
function tlsHint(error: unknown): string {
  const raw = (error as { code?: unknown }).code;
  const code = typeof raw === "string" ? raw : "";
  if (!/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED)/.test(code)) return "";
  return ` (${code}): DOCKER_CERT_PATH's ca.pem must be the CA of the engine's certificate, which must name the host in DOCKER_HOST, and the engine (dockerd --tlscacert) must trust its cert.pem.`;
}

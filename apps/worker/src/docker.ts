// The Docker engine client from the operator's DOCKER_HOST setting (parsed by env.ts). dockerode
// would otherwise read DOCKER_HOST (and DOCKER_CERT_PATH, DOCKER_TLS_VERIFY…) from the
// environment itself; every connection option is set here, so the environment cannot add one.
import { AppError } from "@secondshift/errors";
import Docker from "dockerode";

const DEFAULT_SOCKET = "/var/run/docker.sock";

/** The options the engine is reached with: a unix socket, or plain HTTP to host:port. */
export type DockerConnection =
  { socketPath: string } | { host: string; port: number; protocol: "http" };

export function dockerConnection(dockerHost: string | undefined): DockerConnection {
  const value = dockerHost?.trim() ?? "";
  if (value === "") return { socketPath: DEFAULT_SOCKET };
  if (value.startsWith("unix://"))
    return { socketPath: value.slice("unix://".length) || DEFAULT_SOCKET };
  if (value.startsWith("/")) return { socketPath: value };
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (
    (url?.protocol === "tcp:" || url?.protocol === "http:") &&
    url.hostname &&
    url.pathname.replace(/\/$/, "") === ""
  ) {
    return {
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: Number(url.port || 2375),
      protocol: "http",
    };
  }
  throw new AppError(
    "BAD_REQUEST",
    "DOCKER_HOST must be unix:///path/to/docker.sock or tcp://host:port (TLS and ssh are not supported); unset it to use /var/run/docker.sock.",
    { reason: "DOCKER_HOST_INVALID" },
  );
}

export function createDockerClient(dockerHost: string | undefined): Docker {
  const connection = dockerConnection(dockerHost);
  // Explicit undefined: dockerode merges its environment defaults under these options.
  return new Docker({
    socketPath: undefined,
    host: undefined,
    port: undefined,
    protocol: undefined,
    ca: undefined,
    cert: undefined,
    key: undefined,
    timeout: undefined,
    ...connection,
  });
}

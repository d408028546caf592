// The Docker engine client from the operator's DOCKER_HOST, DOCKER_TLS_VERIFY and
// DOCKER_CERT_PATH settings (parsed by env.ts, resolved once by settings.ts). dockerode would
// otherwise read those (and more) from the environment itself; every connection option is set
// here, so the environment cannot add one. An engine is root on its host: over TCP it is reached
// with mutual TLS only (plain tcp:// is for development and tests).
import { AppError } from "@secondshift/errors";
import Docker from "dockerode";
import { readClientTls, type ClientTls } from "./docker-tls.ts";

const DEFAULT_SOCKET = "/var/run/docker.sock";
const SETUP_HINT =
  "set DOCKER_HOST=tcp://HOST:2376, DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH to a folder with ca.pem, cert.pem and key.pem, and start that engine with dockerd --tlsverify (docs/DEPLOY.md, section 3)";

/** The options the engine is reached with: a unix socket, mutual TLS, or (development) plain HTTP. */
export type DockerConnection =
  | { socketPath: string }
  | { host: string; port: number; protocol: "https"; tls: ClientTls }
  | { host: string; port: number; protocol: "http" };

export interface DockerSettingsInput {
  dockerHost?: string | undefined;
  tlsVerify: boolean;
  certPath?: string | undefined;
  production: boolean;
}

function invalid(message: string, reason: string): AppError {
  return new AppError("BAD_REQUEST", message, { reason });
}

/** Resolves the settings once, at start: TLS files are read here (see docker-tls.ts). */
export function dockerConnection(input: DockerSettingsInput): DockerConnection {
  const value = input.dockerHost?.trim() ?? "";
  const socketPath = unixSocket(value);
  if (socketPath !== undefined) {
    if (input.tlsVerify)
      throw invalid(
        "DOCKER_TLS_VERIFY applies to a tcp:// DOCKER_HOST only; unset it for a unix socket, or set DOCKER_HOST=tcp://HOST:2376.",
        "DOCKER_TLS_MISPLACED",
      );
    return { socketPath };
  }
  if (value.startsWith("ssh://"))
    throw invalid(
      `DOCKER_HOST=ssh://… is not supported: reach a remote engine over TCP with TLS client certificates instead: ${SETUP_HINT}.`,
      "DOCKER_HOST_SSH_UNSUPPORTED",
    );
  const { host, port, scheme } = tcpAddress(value, input.tlsVerify);
  if (input.tlsVerify) {
    if (scheme !== "tcp:")
      throw invalid(
        "With DOCKER_TLS_VERIFY=1, DOCKER_HOST must be tcp://HOST:PORT (e.g. tcp://sandbox-1.internal:2376).",
        "DOCKER_HOST_INVALID",
      );
    return { host, port, protocol: "https", tls: readClientTls(input.certPath) };
  }
  if (input.production)
    throw invalid(
      `DOCKER_HOST=${value} without TLS would let anyone who reaches that port run anything as root on the engine's host, so production refuses it: ${SETUP_HINT}. Or use a unix socket. SECONDSHIFT_ENV=development allows plain tcp:// for tests.`,
      "DOCKER_PLAIN_TCP_REFUSED",
    );
  return { host, port, protocol: "http" };
}

function unixSocket(value: string): string | undefined {
  if (value === "") return DEFAULT_SOCKET;
  if (value.startsWith("unix://")) return value.slice("unix://".length) || DEFAULT_SOCKET;
  if (value.startsWith("/")) return value;
  return undefined;
}

function tcpAddress(value: string, tls: boolean): { host: string; port: number; scheme: string } {
  const url = URL.canParse(value) ? new URL(value) : undefined;
  if (
    (url?.protocol === "tcp:" || url?.protocol === "http:") &&
    url.hostname &&
    url.pathname.replace(/\/$/, "") === "" &&
    !url.username &&
    !url.search
  ) {
    return {
      host: url.hostname.replace(/^\[|\]$/g, ""),
      // Docker's own defaults: 2376 with TLS, 2375 without.
      port: Number(url.port || (tls ? 2376 : 2375)),
      scheme: url.protocol,
    };
  }
  throw invalid(
    "DOCKER_HOST must be unix:///path/to/docker.sock or tcp://host:port (with DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH for TLS; ssh is not supported); unset it to use /var/run/docker.sock.",
    "DOCKER_HOST_INVALID",
  );
}

export function createDockerClient(connection: DockerConnection | undefined): Docker {
  const c = connection ?? { socketPath: DEFAULT_SOCKET };
  const tls = "tls" in c ? c.tls : undefined;
  // Explicit undefined: dockerode merges its environment defaults under these options. With TLS
  // the modem's https request checks the engine's certificate against `host` (Node's default
  // server identity check: a DNS name or an IP subjectAltName) and the CA from ca.pem only.
  return new Docker({
    socketPath: "socketPath" in c ? c.socketPath : undefined,
    host: "host" in c ? c.host : undefined,
    port: "port" in c ? c.port : undefined,
    protocol: "protocol" in c ? c.protocol : undefined,
    ca: tls?.ca,
    cert: tls?.cert,
    key: tls?.key,
    timeout: undefined,
  });
}

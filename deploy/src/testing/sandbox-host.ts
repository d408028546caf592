// A dedicated sandbox host for the smoke stack (docs/DEPLOY.md, section 3): a second dockerd on
// this machine with its own data, exec root, pid file and unix socket, and a TCP port on
// 127.0.0.1 that requires a client certificate (--tlsverify). No engine runs there before
// scripts/host-setup.sh (up.sh's first step), which starts it as on a host without a service
// manager (SECONDSHIFT_DOCKERD_ARGS) and registers runsc in its configuration file; then the
// sandbox image is loaded from the test engine (docker save | load). The stack's worker reaches
// it with DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH only.
import { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { makeCertificates } from "@secondshift/worker/testing/mtls";
import { freePorts, repoRoot, run, type CommandResult } from "./stack.ts";

export interface SandboxHost {
  /** The TLS port on 127.0.0.1 (DOCKER_HOST=tcp://127.0.0.1:PORT). */
  port: number;
  /** The worker's DOCKER_CERT_PATH folder (ca.pem, cert.pem, key.pem), owned by its user. */
  certDir: string;
  /** A docker CLI command against this engine (its unix socket, no TLS needed here). */
  docker: (args: string[]) => Promise<CommandResult>;
  /** What scripts/host-setup.sh printed while it started and configured the engine. */
  hostSetupOutput: string;
  stop(): Promise<void>;
}

/** The image's worker user (docker/app): it must read the mounted key. */
const WORKER_UID = 10000;

export async function startSandboxHost(dir: string, image: string): Promise<SandboxHost> {
  mkdirSync(join(dir, "certs"), { recursive: true });
  const certs = makeCertificates(join(dir, "certs"));
  chownSync(certs.clientDir, WORKER_UID, WORKER_UID);
  for (const name of ["ca.pem", "cert.pem", "key.pem"])
    chownSync(join(certs.clientDir, name), WORKER_UID, WORKER_UID);
  writeFileSync(join(dir, "engine-ca.pem"), certs.ca);
  writeFileSync(join(dir, "engine-cert.pem"), certs.server.cert);
  writeFileSync(join(dir, "engine-key.pem"), certs.server.key, { mode: 0o600 });
  // The operator's own configuration file (empty): host set-up adds runsc to it.
  const config = join(dir, "daemon.json");
  writeFileSync(config, "{}\n");
  const [port] = await freePorts(1);
  const socket = join(dir, "docker.sock");
  const docker = (args: string[]) => run("docker", ["-H", `unix://${socket}`, ...args]);
  const host: SandboxHost = {
    port: port!,
    certDir: certs.clientDir,
    docker,
    hostSetupOutput: "",
    stop: () => stopEngine(dir),
  };
  try {
    const setup = await run("bash", [join(repoRoot, "scripts/host-setup.sh")], {
      env: {
        ...process.env,
        DOCKER_HOST: `unix://${socket}`,
        SECONDSHIFT_DOCKERD_ARGS: dockerdArgs(dir, config, socket, port!).join(" "),
        SECONDSHIFT_DOCKERD_LOG: join(dir, "dockerd.log"),
      },
    });
    host.hostSetupOutput = setup.output;
    if (setup.code !== 0) throw new Error(`host-setup.sh: ${setup.output}`);
    const loaded = await run("bash", [
      "-c",
      `docker save "$1" | docker -H "unix://$2" load`,
      "load",
      image,
      socket,
    ]);
    if (loaded.code !== 0) throw new Error(`loading ${image}: ${loaded.output}`);
  } catch (error) {
    await host.stop();
    throw error;
  }
  return host;
}

/** Stops the engine host set-up started (its pid file) and removes its folder. */
async function stopEngine(dir: string): Promise<void> {
  const pidFile = join(dir, "docker.pid");
  if (existsSync(pidFile)) {
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    try {
      process.kill(pid, "SIGTERM");
      const deadline = Date.now() + 30_000;
      while (existsSync(`/proc/${pid}`) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
    } catch {
      // already gone
    }
  }
  await rm(dir, { recursive: true, force: true });
}

function dockerdArgs(dir: string, config: string, socket: string, port: number): string[] {
  // No bridge, no iptables: sandboxes never have a network (as scripts/services/dockerd.sh).
  // Its own exec root: its own containerd, so the two engines never see each other's containers.
  return [
    "--config-file",
    config,
    "--data-root",
    join(dir, "data"),
    "--exec-root",
    join(dir, "exec"),
    "--pidfile",
    join(dir, "docker.pid"),
    "-H",
    `unix://${socket}`,
    "-H",
    `tcp://127.0.0.1:${port}`,
    "--tlsverify",
    "--tlscacert",
    join(dir, "engine-ca.pem"),
    "--tlscert",
    join(dir, "engine-cert.pem"),
    "--tlskey",
    join(dir, "engine-key.pem"),
    "--bridge=none",
    "--iptables=false",
    "--ip6tables=false",
  ];
}

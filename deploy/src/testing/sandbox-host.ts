// A dedicated sandbox host for the smoke stack (docs/DEPLOY.md, section 3): a second dockerd on
// this machine with its own data, exec root, pid file and unix socket, runsc registered as
// scripts/lib/runsc.sh does, the sandbox image loaded from the test engine (docker save | load),
// and a TCP port on 127.0.0.1 that requires a client certificate (--tlsverify). The stack's
// worker reaches it with DOCKER_HOST, DOCKER_TLS_VERIFY and DOCKER_CERT_PATH only.
import { spawn, type ChildProcess } from "node:child_process";
import { chownSync, mkdirSync, writeFileSync } from "node:fs";
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
  const config = join(dir, "daemon.json");
  const registered = await run("bash", [
    "-c",
    `. "${repoRoot}/scripts/lib/runsc.sh" && write_runsc_config "$1" /usr/bin/runsc`,
    "runsc",
    config,
  ]);
  if (registered.code !== 0) throw new Error(`runsc config: ${registered.output}`);
  const [port] = await freePorts(1);
  const socket = join(dir, "docker.sock");
  const engine = startDockerd(dir, config, socket, port!);
  const docker = (args: string[]) => run("docker", ["-H", `unix://${socket}`, ...args]);
  const host: SandboxHost = {
    port: port!,
    certDir: certs.clientDir,
    docker,
    stop: async () => {
      engine.kill("SIGTERM");
      await new Promise((done) => (engine.exitCode === null ? engine.once("exit", done) : done(0)));
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitForEngine(engine, docker, join(dir, "dockerd.log"));
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

function startDockerd(dir: string, config: string, socket: string, port: number): ChildProcess {
  // No bridge, no iptables: sandboxes never have a network (as scripts/services/dockerd.sh).
  // Its own exec root: its own containerd, so the two engines never see each other's containers.
  const args = [
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
  const log = join(dir, "dockerd.log");
  return spawn("bash", ["-c", `exec dockerd "$@" >"${log}" 2>&1`, "dockerd", ...args], {
    stdio: "ignore",
  });
}

async function waitForEngine(
  engine: ChildProcess,
  docker: (args: string[]) => Promise<CommandResult>,
  log: string,
): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && engine.exitCode === null) {
    if (
      (await docker(["info", "--format", "{{json .Runtimes.runsc}}"])).output.includes(
        "oci-seccomp",
      )
    )
      return;
    await new Promise((r) => setTimeout(r, 250));
  }
  const tail = await run("tail", ["-20", log]);
  throw new Error(`the sandbox host's dockerd did not start: ${tail.output}`);
}

// A compose stack of the smoke test: its own project name (containers, volumes), settings file
// and loopback ports, driven only through the operator's scripts (scripts/up.sh, backup.sh,
// restore.sh, lib/compose.sh) on the host network (docker/compose.hostnet.yaml).
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:net";
import { join, resolve } from "node:path";

export const repoRoot = resolve(import.meta.dirname, "../../..");
/** The app image tag the smoke stacks run; never the operator's "latest". SMOKE_APP_TAG keeps
 * engineers sharing one Docker engine from retagging each other's image mid-run. */
export const appTag = process.env.SMOKE_APP_TAG ?? "smoke";

export interface CommandResult {
  code: number | null;
  output: string;
}

/** Runs a command with the repository as working directory; stdout and stderr interleaved. */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; input?: string } = {},
): Promise<CommandResult> {
  return new Promise((done, fail) => {
    // No stdin unless there is input: a command that exits without reading it (docker logs)
    // would otherwise make the write fail with EPIPE.
    const child = spawn(command, args, {
      cwd: repoRoot,
      env: options.env ?? process.env,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, output }));
    child.stdin?.end(options.input);
  });
}

/**
 * Distinct free loopback ports, all held until every one is chosen so none repeats. Taken below
 * the kernel's ephemeral range (32768+): the stacks bind them minutes later, after the image
 * builds, and suites running side by side take their ports from that range (listen on 0).
 */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  const ports: number[] = [];
  for (let port = 20_000 + Math.floor(Math.random() * 10_000); ports.length < count; port++) {
    if (port >= 32_768) port = 20_000;
    const server = createServer();
    const bound = await new Promise<boolean>((done) => {
      server.once("error", () => done(false));
      server.listen(port, "127.0.0.1", () => done(true));
    });
    if (!bound) continue;
    servers.push(server);
    ports.push(port);
  }
  await Promise.all(servers.map((s) => new Promise((closed) => s.close(closed))));
  return ports;
}

export interface StackPorts {
  postgres: number;
  redis: number;
  web: number;
  gateway: number;
  /** The second gateway of the scaled-out layout (docker/compose.hostnet-scale.yaml). */
  gateway2: number;
  /** The worker's /healthz and /readyz. */
  worker: number;
  /** The second worker's /healthz and /readyz (docker/compose.hostnet-scale.yaml). */
  worker2: number;
}

export class Stack {
  readonly envFile: string;
  /** Compose files read after docker/compose.hostnet.yaml (e.g. the scale-out services). */
  readonly extraComposeFiles: string[] = [];
  /** Variables those files read (e.g. the sandbox host's port and certificate folder). */
  extraEnv: Record<string, string> = {};

  constructor(
    readonly project: string,
    workDir: string,
    readonly ports: StackPorts,
  ) {
    this.envFile = join(workDir, `${project}.env`);
  }

  /** What every script of this stack runs with. */
  env(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      COMPOSE_PROJECT_NAME: this.project,
      SECONDSHIFT_ENV_FILE: this.envFile,
      SECONDSHIFT_COMPOSE_OVERRIDE: [
        join(repoRoot, "docker/compose.hostnet.yaml"),
        ...this.extraComposeFiles,
      ].join(":"),
      SECONDSHIFT_APP_TAG: appTag,
      // The test command has built the sandbox image already (same script, same contents).
      ...(process.env.TEST_SANDBOX_IMAGE
        ? { SANDBOX_IMAGE_TAG: process.env.TEST_SANDBOX_IMAGE }
        : {}),
      SMOKE_POSTGRES_PORT: String(this.ports.postgres),
      SMOKE_REDIS_PORT: String(this.ports.redis),
      SMOKE_WEB_PORT: String(this.ports.web),
      SMOKE_GATEWAY_PORT: String(this.ports.gateway),
      SMOKE_GATEWAY_2_PORT: String(this.ports.gateway2),
      SMOKE_WORKER_PORT: String(this.ports.worker),
      SMOKE_WORKER_2_PORT: String(this.ports.worker2),
      // Read by scripts/write-env.sh when it creates the settings file.
      SECONDSHIFT_POSTGRES_ADDR: `127.0.0.1:${this.ports.postgres}`,
      SECONDSHIFT_REDIS_ADDR: `127.0.0.1:${this.ports.redis}`,
      SECONDSHIFT_GATEWAY_ADDR: `127.0.0.1:${this.ports.gateway}`,
      SECONDSHIFT_PUBLIC_URL: `http://127.0.0.1:${this.ports.web}`,
      ...this.extraEnv,
    };
  }

  script(name: string, args: string[] = []): Promise<CommandResult> {
    return run("bash", [join(repoRoot, "scripts", name), ...args], { env: this.env() });
  }

  compose(args: string[], input?: string): Promise<CommandResult> {
    return run(
      "bash",
      ["-c", `. "${repoRoot}/scripts/lib/compose.sh" && compose "$@"`, "compose", ...args],
      { env: this.env(), ...(input === undefined ? {} : { input }) },
    );
  }

  /**
   * The container of one compose service, found by compose's labels. The probes below go to it
   * with the Docker client: Debian's docker-compose 1.29 is a Python program that takes 1–5 s
   * to start on a busy machine, and the smoke test probes a few dozen times.
   */
  async container(service: string): Promise<string> {
    const found = await run("docker", [
      "ps",
      "-a",
      "-q",
      "--filter",
      `label=com.docker.compose.project=${this.project}`,
      "--filter",
      `label=com.docker.compose.service=${service}`,
      "--filter",
      "label=com.docker.compose.oneoff=False",
    ]);
    const id = found.output.trim().split("\n")[0];
    if (found.code !== 0 || !id) throw new Error(`no ${service} container: ${found.output}`);
    return id;
  }

  /** One value from the stack's database, through psql inside the postgres container. */
  async sql(query: string): Promise<string> {
    const id = await this.container("postgres");
    const args = ["exec", id, "psql", "-U", "secondshift", "-d", "secondshift", "-tAc", query];
    const result = await run("docker", args);
    if (result.code !== 0) throw new Error(`psql failed: ${result.output}`);
    return result.output.trim();
  }

  /** A redis-cli command inside the redis container (authenticated by its REDISCLI_AUTH). */
  async redis(args: string[]): Promise<string> {
    const id = await this.container("redis");
    const port = String(this.ports.redis);
    const result = await run("docker", ["exec", id, "redis-cli", "-p", port, ...args]);
    if (result.code !== 0) throw new Error(`redis-cli failed: ${result.output}`);
    return result.output.trim();
  }

  /** The logs of one compose service's container (all its lines). */
  async logs(service: string): Promise<string> {
    const result = await run("docker", ["logs", await this.container(service)]);
    if (result.code !== 0) throw new Error(`docker logs failed: ${result.output}`);
    return result.output;
  }

  get webUrl(): string {
    return `http://127.0.0.1:${this.ports.web}`;
  }

  async health(service: "web" | "gateway" | "gateway2"): Promise<number> {
    const res = await fetch(`http://127.0.0.1:${this.ports[service]}/healthz`);
    return res.status;
  }

  /** Removes the containers and the volumes: nothing of the stack is left behind. */
  down(): Promise<CommandResult> {
    return this.compose(["down", "-v", "--remove-orphans", "--timeout", "20"]);
  }
}

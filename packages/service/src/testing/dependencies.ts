// For readiness tests: a service's dependencies that a test may take away and bring back without
// touching the shared ones — a PostgreSQL cluster and a Redis of the test's own (the scripts in
// scripts/services/, which restart on the same port), and a Docker engine reached through a
// proxy socket that can be closed, or that hides a runtime from the engine's /info.
import { execFile } from "node:child_process";
import { rm } from "node:fs/promises";
import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { connect, type Socket } from "node:net";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
const scripts = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../scripts/services");

export interface OwnService {
  url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port (PostgreSQL keeps its data, Redis starts empty). */
  start(): Promise<void>;
}

async function ownService(script: string, dir: string): Promise<OwnService> {
  const start = async () =>
    (await run("bash", [`${scripts}/${script}`, "start", dir])).stdout.trim();
  const url = await start();
  return {
    url,
    stop: async () => void (await run("bash", [`${scripts}/${script}`, "stop", dir])),
    start: async () => void (await start()),
  };
}

/** A throwaway PostgreSQL cluster in `dir`; `url` is its admin URL (database `postgres`). */
export const ownPostgres = (dir: string) => ownService("postgres.sh", dir);

/** A throwaway Redis in `dir`. */
export const ownRedis = (dir: string) => ownService("redis.sh", dir);

export interface DockerProxy {
  /** `unix://…`, for DOCKER_HOST. */
  dockerHost: string;
  /** Closes the socket and cuts open connections: the engine "stops" for its clients. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Whether /info hides this runtime (e.g. "runsc": an engine without gVisor registered). */
  hideRuntime: string | undefined;
}

const ENGINE = "/var/run/docker.sock";

/** Forwards one request to the engine; /info's answer loses `hideRuntime` when set. */
function forward(proxy: DockerProxy, req: IncomingMessage, res: ServerResponse) {
  const upstream = request(
    { socketPath: ENGINE, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      const hide = proxy.hideRuntime;
      if (!hide || !/^\/(v[\d.]+\/)?info(\?|$)/.test(req.url ?? "")) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on("data", (c: Buffer) => chunks.push(c));
      answer.on("end", () => {
        const info = JSON.parse(Buffer.concat(chunks).toString()) as {
          Runtimes?: Record<string, unknown>;
        };
        delete info.Runtimes?.[hide];
        const body = JSON.stringify(info);
        const headers = { ...answer.headers, "content-length": String(Buffer.byteLength(body)) };
        delete headers["transfer-encoding"];
        res.writeHead(answer.statusCode ?? 200, headers).end(body);
      });
    },
  );
  upstream.on("error", () => res.destroy());
  req.pipe(upstream);
}

/** A proxy socket at `socketPath` in front of the machine's Docker engine. */
export async function dockerProxy(socketPath: string): Promise<DockerProxy> {
  let server: Server | undefined;
  const open = new Set<Socket>();
  const proxy: DockerProxy = {
    dockerHost: `unix://${socketPath}`,
    hideRuntime: undefined,
    async start() {
      await rm(socketPath, { force: true });
      server = createServer((req, res) => forward(proxy, req, res));
      // exec / attach hijack the connection: pass the raw bytes through both ways.
      server.on("upgrade", (req: IncomingMessage, socket: Socket, head: Buffer) => {
        const engine = connect(ENGINE, () => {
          const lines = [`${req.method} ${req.url} HTTP/1.1`];
          for (let i = 0; i < req.rawHeaders.length; i += 2)
            lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
          engine.write(lines.join("\r\n") + "\r\n\r\n");
          engine.write(head);
          engine.pipe(socket).pipe(engine);
        });
        engine.on("error", () => socket.destroy());
        socket.on("error", () => engine.destroy());
      });
      server.on("connection", (s: Socket) => {
        open.add(s);
        s.on("close", () => open.delete(s));
      });
      const listening = server;
      await new Promise<void>((done) => listening.listen(socketPath, done));
    },
    async stop() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      const closed = new Promise<void>((done) => closing.close(() => done()));
      for (const s of open) s.destroy();
      await closed;
    },
  };
  await proxy.start();
  return proxy;
}

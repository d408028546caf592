// For tests of service entry points: start one as a real process with a given environment and
// collect what it prints, and find a free loopback port for it.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";

export function freePort(): Promise<number> {
  return new Promise((done) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

export interface StartedService {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

/** Runs `entry` (a .ts file) with tsx and only PATH plus `env` in its environment. */
export function startService(
  entry: string,
  env: Record<string, string | undefined>,
): StartedService {
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr.on("data", (c: Buffer) => (output += c.toString()));
  // A death by signal (code null) names the signal in the output, for the failure message.
  const exited = new Promise<number | null>((done) =>
    child.on("exit", (code, signal) => {
      if (signal) output += `\n[process ended by ${signal}]\n`;
      done(code);
    }),
  );
  return { child, exited, output: () => output };
}

/** GETs `url` until something answers (up to `ms`); fails early if `service` exits. */
export async function waitForAnswer(
  url: string,
  service: StartedService,
  ms = 60_000,
): Promise<Response> {
  const deadline = Date.now() + ms;
  for (;;) {
    const res = await fetch(url).catch(() => undefined);
    if (res) return res;
    if (service.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`no answer from ${url}; the service printed:\n${service.output()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What a service started with a wrong key answers on its health port (P07). */
export async function keyMismatchAnswers(port: number, service: StartedService) {
  const readyz = await waitForAnswer(`http://127.0.0.1:${port}/readyz`, service);
  const healthz = await fetch(`http://127.0.0.1:${port}/healthz`);
  return {
    readyzStatus: readyz.status,
    readyzBody: (await readyz.json()) as {
      status: string;
      checks: Array<{ name: string; ok: boolean; message: string }>;
    },
    healthzStatus: healthz.status,
  };
}

/**
 * The value of one series in a Prometheus text scrape: `name` with at least these labels (in
 * any order); undefined when no such series is there.
 */
export function seriesValue(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = new Map(
      [...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found.get(k) === v)) return Number(match[3]);
  }
  return undefined;
}

export { dockerProxy, ownPostgres, ownRedis } from "./dependencies.ts";
export type { DockerProxy, OwnService } from "./dependencies.ts";
export { failedChecks, readyzOf, waitForReadyz } from "./readyz.ts";
export type { ReadinessReport, ReadyzAnswer } from "./readyz.ts";

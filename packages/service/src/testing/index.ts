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

// Starts the real @modelcontextprotocol/server-everything on a free loopback port.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address
          ? resolve(address.port)
          : reject(new Error("no port")),
      );
    });
  });
}

export interface RunningServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startEverything(mode: "streamableHttp" | "sse"): Promise<RunningServer> {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@modelcontextprotocol/server-everything/package.json");
  const entry = join(dirname(pkg), "dist", "index.js");
  const port = await freePort();
  const child = spawn(process.execPath, [entry, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("server-everything did not start")), 20_000);
    let seen = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port|running on port/i.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code})`)));
  });
  const path = mode === "sse" ? "/sse" : "/mcp";
  return {
    url: `http://127.0.0.1:${port}${path}`,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

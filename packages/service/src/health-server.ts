// A small HTTP server with only `/healthz` (alive) and `/readyz`, for a service that has no
// other HTTP endpoint (the worker) or may not serve its own (one whose key check failed).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { handleReadyz, type Readiness } from "./readiness.ts";

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

export function startHealthServer(port: number, readiness: Readiness): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    if (handleReadyz(readiness, req, res)) return;
    const alive = req.method === "GET" && req.url === "/healthz";
    res
      .writeHead(alive ? 200 : 404, { "content-type": "application/json" })
      .end(JSON.stringify(alive ? { status: "alive" } : { error: { code: "NOT_FOUND" } }));
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => {
      server.off("error", reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

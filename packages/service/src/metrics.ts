// Prometheus metrics: each service creates one registry here and passes it to the packages
// that define their metrics on it (`create…Metrics(registry)` in scheduler, sandbox,
// model-gateway, broker, webhooks). No package registers on prom-client's global default
// registry, so a test or a bench can build several services in one process without clashes.
// The registry is served on its own port (METRICS_PORT), never on the service's public one.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { collectDefaultMetrics, Registry } from "prom-client";

/** A registry with Node's process metrics (CPU, memory, event loop lag), labelled by service. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry, prefix: "secondshift_" });
  return registry;
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** Serves `GET /metrics` on `port` (all interfaces: keep the port internal); none when unset. */
export async function serveMetrics(
  port: number | undefined,
  registry: Registry,
): Promise<MetricsServer | undefined> {
  if (port === undefined) return undefined;
  const server = createServer((req, res) => {
    if (req.method !== "GET" || req.url !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": registry.contentType }).end(text),
      (error: unknown) =>
        res
          .writeHead(500, { "content-type": "text/plain" })
          .end(`metrics failed: ${String(error)}`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

// Test helpers (not exported from the package). The HARD RULE of these tests: no socket is
// ever opened to anything but 127.0.0.1. Resolvers are fakes; the connector records the
// checked target and always dials loopback, so "public" test addresses never leave the host.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { vi } from "vitest";
import type {
  ConnectTarget,
  Connector,
  OutboundPolicy,
  ResolvedAddress,
  Resolver,
} from "./policy.ts";

/** Documentation-free, globally routable addresses used only as labels: never dialled. */
export const FAKE_PUBLIC_V4 = "93.184.215.14";
export const FAKE_PUBLIC_V4_B = "93.184.215.15";
export const FAKE_PUBLIC_V6 = "2606:2800:21f:cb07:6820:80da:af6b:f8c0";

export interface LoopbackConnector {
  connector: Connector;
  calls: ConnectTarget[];
}

/** Records the checked target and connects to 127.0.0.1 on the same port, and nowhere else. */
export function loopbackConnector(): LoopbackConnector {
  const calls: ConnectTarget[] = [];
  const connector: Connector = (target, callback) => {
    calls.push(target);
    const socket: Socket = connect({ host: "127.0.0.1", port: target.port });
    socket.once("connect", () => callback(null, socket));
    socket.once("error", (error) => callback(error, null));
  };
  return { connector, calls };
}

/** A resolver from a fixed table; unknown names fail like NXDOMAIN. */
export function tableResolver(table: Record<string, string[] | string[][]>) {
  const counts = new Map<string, number>();
  const resolver = vi.fn<Resolver>((hostname) => {
    const entry = table[hostname];
    if (entry === undefined) {
      return Promise.reject(
        Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }),
      );
    }
    const n = counts.get(hostname) ?? 0;
    counts.set(hostname, n + 1);
    // A list of lists answers differently on each call (the last answer repeats): rebinding.
    const answer = Array.isArray(entry[0])
      ? ((entry as string[][])[Math.min(n, entry.length - 1)] ?? [])
      : (entry as string[]);
    return Promise.resolve(
      answer.map((address): ResolvedAddress => ({
        address,
        family: address.includes(":") ? 6 : 4,
      })),
    );
  });
  return resolver;
}

/** A connector that must never be called (refusals happen before any socket exists). */
export function forbiddenConnector() {
  return vi.fn<Connector>((_target, callback) =>
    callback(new Error("connector must not be called"), null),
  );
}

export function testPolicy(overrides: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return {
    production: false,
    allowHttp: true,
    allowedPrivateHosts: [],
    allowedPrivateCidrs: [],
    timeoutMs: 5_000,
    ...overrides,
  };
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

export interface TestServer {
  server: Server;
  port: number;
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  close(): Promise<void>;
}

/** A plain HTTP server on 127.0.0.1 that records what it received. */
export async function startServer(handler: Handler): Promise<TestServer> {
  const requests: TestServer["requests"] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: body.toString(),
      });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A handler that writes `total` chunks of 64 KiB, waiting for drain: shows backpressure.
 * `heldBack()` waits until the pump is held back: it is waiting for a drain that has not come
 * through three polls in a row (the reader stopped taking bytes), or it has written everything
 * (so that the caller's `written() < total` then reports the missing backpressure).
 */
export function pumpingHandler(total: number): {
  handler: Handler;
  written(): number;
  heldBack(): Promise<void>;
} {
  const chunk = Buffer.alloc(64 * 1024, 1);
  let written = 0;
  let waitingForDrain = false;
  const handler: Handler = (_req, res) => {
    const pump = (): void => {
      waitingForDrain = false;
      while (written < total) {
        written += 1;
        if (!res.write(chunk)) {
          waitingForDrain = true;
          return void res.once("drain", pump);
        }
      }
      res.end();
    };
    pump();
  };
  const heldBack = async (): Promise<void> => {
    let last = -1;
    let still = 0;
    await vi.waitUntil(
      () => {
        still = waitingForDrain && written === last ? still + 1 : 0;
        last = written;
        return written === total || still >= 2;
      },
      { timeout: 10_000, interval: 20 },
    );
  };
  return { handler, written: () => written, heldBack };
}

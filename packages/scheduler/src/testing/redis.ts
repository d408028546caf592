// Redis for tests: the shared throwaway server from TEST_REDIS_URL with a unique key prefix per
// test file (so files never share state), or a private redis-server this file starts itself.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import type { QueueConnection } from "../queues.ts";

export function testRedisUrl(): string {
  const url = process.env.TEST_REDIS_URL;
  if (!url)
    throw new Error(
      "TEST_REDIS_URL is not set: run the tests through `npm run test:all` (scripts/test-all.sh), which starts Redis.",
    );
  return url;
}

/** Connection options BullMQ workers need (no per-request retry limit) and a fresh prefix. */
export function testQueueConnection(url = testRedisUrl()): Required<QueueConnection> {
  return {
    connection: { url, maxRetriesPerRequest: null },
    prefix: `sstest-${randomUUID().slice(0, 12)}`,
  };
}

/** Deletes every key under the prefix. */
export async function deletePrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

export async function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
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

export interface OwnRedis {
  url: string;
  /** Stops the server (SIGTERM: Redis flushes the AOF, as on a normal restart). */
  stop(): Promise<void>;
}

/** A private redis-server with AOF persistence in `dir`, listening on loopback only. */
export async function startRedisServer(dir: string, port: number): Promise<OwnRedis> {
  const child: ChildProcess = spawn(
    "redis-server",
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--appendonly",
      "yes",
      "--dir",
      dir,
      "--save",
      "",
      "--daemonize",
      "no",
    ],
    { stdio: "ignore" },
  );
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const probe = new Redis(url, {
      maxRetriesPerRequest: 0,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    probe.on("error", () => undefined); // refused until the server listens; retried below
    try {
      await probe.connect();
      // Wait until the AOF is loaded; commands before that fail with LOADING.
      if ((await probe.ping()) === "PONG") break;
    } catch (error) {
      if (i > 100) throw error;
    } finally {
      probe.disconnect();
    }
    await sleep(50);
  }
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

// Size and time limits, and the two everyday shapes: a JSON call and a streamed proxy.
import { afterEach, describe, expect, it } from "vitest";
import { isAppError } from "@secondshift/errors";
import { Readable } from "node:stream";
import { createOutboundClient, guardedFetch, type OutboundClient } from "./client.ts";
import type { OutboundPolicy } from "./policy.ts";
import {
  FAKE_PUBLIC_V4,
  loopbackConnector,
  pumpingHandler,
  startServer,
  tableResolver,
  testPolicy,
  type Handler,
  type TestServer,
} from "./test-support.ts";

let server: TestServer | undefined;
let client: OutboundClient | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
});

async function setup(handler: Handler, overrides: Partial<OutboundPolicy> = {}) {
  server = await startServer(handler);
  const loop = loopbackConnector();
  const resolver = tableResolver({ "api.example.test": [FAKE_PUBLIC_V4] });
  client = createOutboundClient(testPolicy({ resolver, connector: loop.connector, ...overrides }));
  return { client, url: `http://api.example.test:${server.port}` };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe("response size limit", () => {
  it("[C21] refuses a declared oversize response before reading it", async () => {
    const { client, url } = await setup(
      (_req, res) => res.setHeader("content-length", "2048").end("x".repeat(2048)),
      {
        maxResponseBytes: 1024,
      },
    );
    const error = await failure(client.fetch(url));
    expect(error.reason).toBe("RESPONSE_TOO_LARGE");
    expect(error.message).toContain("1024 bytes");
  });

  it("[C21] cuts a chunked body past the limit with a typed error", async () => {
    const { client, url } = await setup(
      (_req, res) => {
        res.write("x".repeat(800));
        setTimeout(() => res.write("y".repeat(800)), 10);
        setTimeout(() => res.end("z".repeat(800)), 20);
      },
      { maxResponseBytes: 1024 },
    );
    const response = await client.fetch(url);
    expect((await failure(response.text())).reason).toBe("RESPONSE_TOO_LARGE");
  });

  it("allows a body of exactly the limit", async () => {
    const { client, url } = await setup((_req, res) => res.end("x".repeat(1024)), {
      maxResponseBytes: 1024,
    });
    expect((await (await client.fetch(url)).text()).length).toBe(1024);
  });
});

describe("total deadline", () => {
  it("[C21] times out a server that never answers", async () => {
    const { client, url } = await setup(() => undefined, { timeoutMs: 200 });
    const started = Date.now();
    expect((await failure(client.fetch(url))).reason).toBe("TIMEOUT");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("[C21] cuts a slow-drip body at the total deadline", async () => {
    const { client, url } = await setup(
      (_req, res) => {
        res.write("a");
        const timer = setInterval(() => res.write("a"), 30);
        res.on("close", () => clearInterval(timer));
      },
      { timeoutMs: 300 },
    );
    const response = await client.fetch(url);
    const started = Date.now();
    expect((await failure(response.text())).reason).toBe("TIMEOUT");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("a per-request timeout overrides the policy", async () => {
    const { client, url } = await setup(() => undefined, { timeoutMs: 60_000 });
    expect((await failure(client.fetch(url, { timeoutMs: 100 }))).reason).toBe("TIMEOUT");
  });

  it("the caller's abort signal cancels a streaming response with the caller's reason", async () => {
    const { client, url } = await setup((_req, res) => {
      res.write("first");
      const timer = setInterval(() => res.write("more"), 20);
      res.on("close", () => clearInterval(timer));
    });
    const controller = new AbortController();
    const response = await client.fetch(url, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("first");
    controller.abort(new Error("client went away"));
    await expect(reader.read()).rejects.toThrow("client went away");
  });
});

describe("everyday requests", () => {
  it("sends a JSON request and reads the JSON answer", async () => {
    const { url } = await setup((req, res, body) =>
      res.setHeader("content-type", "application/json").end(
        JSON.stringify({
          got: JSON.parse(body.toString()) as unknown,
          ct: req.headers["content-type"],
        }),
      ),
    );
    const policy = testPolicy({
      resolver: tableResolver({ "api.example.test": [FAKE_PUBLIC_V4] }),
      connector: loopbackConnector().connector,
    });
    const response = await guardedFetch(
      `${url}/v1/items`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "a" }),
      },
      policy,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ got: { name: "a" }, ct: "application/json" });
  });

  it("proxies a streamed POST: request body streamed up, response streamed down with backpressure", async () => {
    const total = 512; // 32 MiB, far more than socket buffers hold
    const pumping = pumpingHandler(total);
    const { client, url } = await setup(
      (req, res, body) => {
        res.setHeader("x-upload", String(body.length));
        pumping.handler(req, res, body);
      },
      { maxResponseBytes: 64 * 1024 * 1024 },
    );
    const upload = Readable.from(
      (function* () {
        for (let i = 0; i < 4; i += 1) yield Buffer.from(`part-${i};`);
      })(),
    );
    const response = await client.fetch(`${url}/v1/messages`, { method: "POST", body: upload });
    expect(response.headers.get("x-upload")).toBe(String("part-0;".length * 4));
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await pumping.heldBack();
    // The server is held back by the unread stream instead of everything being buffered.
    expect(pumping.written()).toBeLessThan(total);
    let received = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read())
      received += r.value.byteLength;
    expect(pumping.written()).toBe(total);
    expect(received).toBeGreaterThan(0);
  });
});

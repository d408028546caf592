// The node-stream request path (used by the model gateway) keeps every guarantee of fetch:
// refused addresses get no socket, redirects are re-checked and shed credentials, and the
// body is cut at the size limit and the total deadline, with backpressure.
import { afterEach, describe, expect, it } from "vitest";
import { isAppError } from "@secondshift/errors";
import type { Readable } from "node:stream";
import { createOutboundClient, type OutboundClient } from "./client.ts";
import type { OutboundPolicy } from "./policy.ts";
import {
  FAKE_PUBLIC_V4,
  FAKE_PUBLIC_V4_B,
  forbiddenConnector,
  loopbackConnector,
  pumpingHandler,
  startServer,
  tableResolver,
  testPolicy,
  type Handler,
  type TestServer,
} from "./test-support.ts";

const servers: TestServer[] = [];
let client: OutboundClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function setup(overrides: Partial<OutboundPolicy> = {}) {
  const loop = loopbackConnector();
  const resolver = tableResolver({
    "a.example.test": [FAKE_PUBLIC_V4],
    "b.example.test": [FAKE_PUBLIC_V4_B],
    "internal.example.test": ["10.0.0.7"],
  });
  client = createOutboundClient(testPolicy({ resolver, connector: loop.connector, ...overrides }));
  return { client, calls: loop.calls };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

async function text(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

describe("guarded request (node streams)", () => {
  it("sends a POST and streams the answer back with its status and headers", async () => {
    const server = await serve((req, res, body) =>
      res
        .writeHead(201, { "content-type": "application/json", "x-seen": req.headers["x-key"] })
        .end(JSON.stringify({ got: body.toString() })),
    );
    const { client, calls } = setup();
    const response = await client.request(`http://a.example.test:${server.port}/v1/x?y=1`, {
      method: "POST",
      headers: { "x-key": "k" },
      body: "hello",
    });
    expect(response.status).toBe(201);
    expect(response.headers["x-seen"]).toBe("k");
    expect(JSON.parse(await text(response.body))).toEqual({ got: "hello" });
    expect(server.requests[0]?.url).toBe("/v1/x?y=1");
    expect(calls[0]?.address).toBe(FAKE_PUBLIC_V4);
  });

  it("[C21] refuses a private address before any socket exists", async () => {
    const connector = forbiddenConnector();
    client = createOutboundClient(
      testPolicy({ resolver: tableResolver({ "x.example.test": ["10.1.2.3"] }), connector }),
    );
    const error = await failure(client.request("http://x.example.test/"));
    expect(error.reason).toBe("ADDRESS_NOT_PUBLIC");
    expect(connector).not.toHaveBeenCalled();
  });

  it("[C21] re-checks a redirect hop and refuses a private target before connecting to it", async () => {
    const a = await serve((_req, res) =>
      res.writeHead(302, { location: "http://internal.example.test/admin" }).end(),
    );
    const { client, calls } = setup();
    const error = await failure(client.request(`http://a.example.test:${a.port}/`));
    expect(error.reason).toBe("ADDRESS_NOT_PUBLIC");
    expect(calls).toHaveLength(1);
  });

  it("[C21] drops credentials on a cross-origin redirect; redirect: error refuses any redirect", async () => {
    const b = await serve((req, res) => res.end(req.headers.authorization ?? "none"));
    const a = await serve((_req, res) =>
      res.writeHead(307, { location: `http://b.example.test:${b.port}/landing` }).end(),
    );
    const { client } = setup();
    const followed = await client.request(`http://a.example.test:${a.port}/`, {
      method: "POST",
      headers: { authorization: "Bearer secret-value" },
      body: "{}",
    });
    expect(await text(followed.body)).toBe("none");
    expect(followed.url).toContain("/landing");
    const refused = await failure(
      client.request(`http://a.example.test:${a.port}/`, { redirect: "error" }),
    );
    expect(refused.reason).toBe("REDIRECT_NOT_ALLOWED");
  });

  it("[C21] refuses a declared oversize body, and cuts a chunked one past the limit", async () => {
    const declared = await serve((_req, res) =>
      res.setHeader("content-length", "2048").end("x".repeat(2048)),
    );
    const chunked = await serve((_req, res) => {
      res.write("x".repeat(800));
      setTimeout(() => res.end("y".repeat(800)), 10);
    });
    const { client } = setup({ maxResponseBytes: 1024 });
    expect((await failure(client.request(`http://a.example.test:${declared.port}/`))).reason).toBe(
      "RESPONSE_TOO_LARGE",
    );
    const response = await client.request(`http://a.example.test:${chunked.port}/`);
    expect((await failure(text(response.body))).reason).toBe("RESPONSE_TOO_LARGE");
  });

  it("[C21] times out a silent server, and cuts a slow-drip body at the total deadline", async () => {
    const silent = await serve(() => undefined);
    const drip = await serve((_req, res) => {
      res.write("a");
      const timer = setInterval(() => res.write("a"), 30);
      res.on("close", () => clearInterval(timer));
    });
    const { client } = setup({ timeoutMs: 300 });
    expect((await failure(client.request(`http://a.example.test:${silent.port}/`))).reason).toBe(
      "TIMEOUT",
    );
    const response = await client.request(`http://a.example.test:${drip.port}/`);
    const started = Date.now();
    expect((await failure(text(response.body))).reason).toBe("TIMEOUT");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("the caller's abort signal ends the body with the caller's reason and closes upstream", async () => {
    let upstreamClosed = false;
    const server = await serve((_req, res) => {
      res.write("first");
      const timer = setInterval(() => res.write("more"), 20);
      res.on("close", () => {
        clearInterval(timer);
        upstreamClosed = true;
      });
    });
    const { client } = setup();
    const controller = new AbortController();
    const response = await client.request(`http://a.example.test:${server.port}/`, {
      signal: controller.signal,
    });
    const iterator = response.body[Symbol.asyncIterator]();
    expect(String((await iterator.next()).value)).toContain("first");
    controller.abort(new Error("client went away"));
    await expect(
      (async () => {
        for (;;) if ((await iterator.next()).done) return;
      })(),
    ).rejects.toThrow("client went away");
    await expect.poll(() => upstreamClosed).toBe(true);
  });

  it("keeps backpressure: an unread body holds the server back", async () => {
    const total = 512;
    const pumping = pumpingHandler(total);
    const server = await serve(pumping.handler);
    const { client } = setup({ maxResponseBytes: 64 * 1024 * 1024 });
    const response = await client.request(`http://a.example.test:${server.port}/`);
    await pumping.heldBack();
    expect(pumping.written()).toBeLessThan(total);
    let received = 0;
    for await (const c of response.body) received += (c as Buffer).byteLength;
    expect(received).toBe(total * 64 * 1024);
  });
});

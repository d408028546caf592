// client.fetch is undici's fetch over the guarded dispatcher, with netguard's body limits on
// top: these tests hold it to what callers rely on (content decoding, null bodies, fetch-only
// options) and to the guarantees (decoded size cap, backpressure, deadline, typed errors).
import { afterEach, describe, expect, it } from "vitest";
import { isAppError } from "@secondshift/errors";
import { createServer } from "node:net";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { createOutboundClient, type OutboundClient } from "./client.ts";
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
  server = undefined;
});

async function setup(handler: Handler, overrides: Partial<OutboundPolicy> = {}) {
  server = await startServer(handler);
  const resolver = tableResolver({ "api.example.test": [FAKE_PUBLIC_V4] });
  client = createOutboundClient(
    testPolicy({ resolver, connector: loopbackConnector().connector, ...overrides }),
  );
  return { client, server, url: `http://api.example.test:${server.port}` };
}

async function failure(promise: Promise<unknown>) {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe("fetch", () => {
  it("undoes gzip, deflate (wrapped and raw) and br like fetch, and leaves unknown codings", async () => {
    const plain = "hello ".repeat(1000);
    const encoded: Record<string, Buffer> = {
      gzip: gzipSync(plain),
      deflate: deflateSync(plain),
      "deflate-raw": deflateRawSync(plain),
      br: brotliCompressSync(plain),
      "gzip, br": brotliCompressSync(gzipSync(plain)),
    };
    const { client, url } = await setup((req, res) => {
      const name = decodeURIComponent((req.url ?? "/").slice(1));
      if (name === "unknown") return res.setHeader("content-encoding", "zz").end("raw bytes");
      res.setHeader("content-encoding", name === "deflate-raw" ? "deflate" : name);
      res.end(encoded[name]);
    });
    for (const name of Object.keys(encoded))
      expect(await (await client.fetch(`${url}/${encodeURIComponent(name)}`)).text()).toBe(plain);
    expect(await (await client.fetch(`${url}/unknown`)).text()).toBe("raw bytes");
  });

  it("[C21] counts decoded bytes against the size limit (a small gzip that inflates past it)", async () => {
    const bomb = gzipSync(Buffer.alloc(1024 * 1024, 0x61));
    const { client, url } = await setup(
      (_req, res) => res.setHeader("content-encoding", "gzip").end(bomb),
      { maxResponseBytes: 64 * 1024 },
    );
    expect(bomb.length).toBeLessThan(64 * 1024);
    const response = await client.fetch(url);
    expect((await failure(response.arrayBuffer())).reason).toBe("RESPONSE_TOO_LARGE");
  });

  it("gives HEAD and 204 answers a null body, and keeps status text, headers and the URL", async () => {
    const { client, url } = await setup((req, res) => {
      res.setHeader("set-cookie", ["a=1", "b=2"]);
      res.setHeader("x-kind", "test");
      if (req.method === "HEAD") return res.setHeader("content-length", "5").end();
      res.writeHead(204, "Nothing Here").end();
    });
    const head = await client.fetch(`${url}/h`, { method: "HEAD" });
    expect(head.body).toBeNull();
    expect(head.headers.get("content-length")).toBe("5");
    const empty = await client.fetch(`${url}/e`, { method: "POST", body: "x" });
    expect(empty.status).toBe(204);
    expect(empty.statusText).toBe("Nothing Here");
    expect(empty.body).toBeNull();
    expect(empty.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(empty.headers.get("x-kind")).toBe("test");
    expect(empty.url).toBe(`${url}/e`);
  });

  it("keeps backpressure on a large download: an unread body holds the server back", async () => {
    const total = 512; // 32 MiB, far more than socket buffers hold
    const pumping = pumpingHandler(total);
    const { client, url } = await setup(pumping.handler, { maxResponseBytes: 64 * 1024 * 1024 });
    const reader = ((await client.fetch(url)).body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await pumping.heldBack();
    expect(pumping.written()).toBeLessThan(total);
    let received = 0;
    for (let r = await reader.read(); !r.done; r = await reader.read())
      received += r.value.byteLength;
    expect(pumping.written()).toBe(total);
    expect(received).toBeGreaterThan(total * 64 * 1024 - 2 * 1024 * 1024);
  });

  it("[C21] the deadline errors a body nobody read, also one that arrived in full", async () => {
    const { client, url } = await setup((_req, res) => res.end("complete"), { timeoutMs: 150 });
    const response = await client.fetch(url);
    // Nobody reads: the body stream is errored by the deadline alone, then reading fails too.
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect((await failure(reader.closed)).reason).toBe("TIMEOUT");
    reader.releaseLock();
    expect((await failure(response.text())).reason).toBe("TIMEOUT");
  });

  it("a cancelled body closes the upstream response", async () => {
    let closed = false;
    const { client, url } = await setup((_req, res) => {
      res.write("first");
      const timer = setInterval(() => res.write("more"), 10);
      res.on("close", () => {
        closed = true;
        clearInterval(timer);
      });
    });
    const reader = ((await client.fetch(url)).body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel();
    await expect.poll(() => closed).toBe(true);
  });

  it("sends blob bodies and passes fetch-only options through", async () => {
    const { client, server, url } = await setup((_req, res) => res.end("ok"));
    await (await client.fetch(url, { method: "POST", body: new Blob(["blob body"]) })).text();
    await (await client.fetch(url, { cache: "no-store" })).text();
    const [blob, noStore] = server.requests;
    expect(blob?.body).toBe("blob body");
    expect(noStore?.headers.pragma).toBe("no-cache");
  });

  it("a connection lost mid-body errors the body as fetch does", async () => {
    const { client, url } = await setup((_req, res) => {
      res.write("part");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const response = await client.fetch(url);
    await expect(response.text()).rejects.toThrow(TypeError);
    const again = await client.fetch(url);
    await expect(again.text()).rejects.toThrow("terminated");
  });

  it("reports a refused connection as CONNECT_FAILED", async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, "127.0.0.1", () => {
        const address = s.address();
        s.close(() => resolve(typeof address === "object" && address ? address.port : 0));
      });
    });
    const { client } = await setup((_req, res) => res.end());
    const error = await failure(client.fetch(`http://api.example.test:${port}/`));
    expect(error.reason).toBe("CONNECT_FAILED");
  });
});

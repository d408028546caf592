// Redirects are followed by netguard itself: every hop is re-checked and credentials are
// dropped on cross-origin hops. Two loopback servers on different ports are two origins.
import { afterEach, describe, expect, it } from "vitest";
import { isAppError } from "@secondshift/errors";
import { Readable } from "node:stream";
import { createOutboundClient, type OutboundClient } from "./client.ts";
import type { OutboundPolicy } from "./policy.ts";
import {
  FAKE_PUBLIC_V4,
  FAKE_PUBLIC_V4_B,
  loopbackConnector,
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
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(handler: Handler): Promise<TestServer> {
  const server = await startServer(handler);
  servers.push(server);
  return server;
}

function redirectTo(location: string, status = 302): Handler {
  return (_req, res) => res.writeHead(status, { location }).end();
}

function setup(overrides: Partial<OutboundPolicy> = {}) {
  const loop = loopbackConnector();
  const resolver = tableResolver({
    "a.example.test": [FAKE_PUBLIC_V4],
    "b.example.test": [FAKE_PUBLIC_V4_B],
    "internal.example.test": ["192.168.1.10"],
  });
  client = createOutboundClient(testPolicy({ resolver, connector: loop.connector, ...overrides }));
  return { client, calls: loop.calls, resolver };
}

async function reason(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return isAppError(error) ? error.reason : String(error);
}

describe("[C21] redirects are re-checked hop by hop", () => {
  const targets = [
    "http://127.0.0.1/admin",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/",
    "http://2130706433/",
    "http://internal.example.test/",
    "http://metadata.google.internal/",
  ];
  for (const target of targets) {
    it(`[C21] refuses a redirect to ${target} before connecting to it`, async () => {
      const a = await serve(redirectTo(target));
      const { client, calls } = setup();
      const why = await reason(client.fetch(`http://a.example.test:${a.port}/start`));
      expect(["ADDRESS_NOT_PUBLIC", "HOST_NOT_ALLOWED"]).toContain(why);
      expect(calls).toHaveLength(1);
      expect(calls[0]?.address).toBe(FAKE_PUBLIC_V4);
    });
  }

  it("[C21] refuses a redirect from https to http in production", async () => {
    // The first hop is plain http outside production; the policy check for the second hop is
    // what matters: a production client refuses http wherever it appears.
    const a = await serve(redirectTo("http://b.example.test/"));
    const { client, calls } = setup({ production: true });
    expect(await reason(client.fetch(`http://a.example.test:${a.port}/`))).toBe("HTTPS_REQUIRED");
    expect(calls).toHaveLength(0);
  });

  it("[C21] stops after maxRedirects", async () => {
    const a = await serve((req, res) =>
      res.writeHead(302, { location: `/hop${req.url ?? ""}` }).end(),
    );
    const { client } = setup({ maxRedirects: 3 });
    expect(await reason(client.fetch(`http://a.example.test:${a.port}/`))).toBe(
      "TOO_MANY_REDIRECTS",
    );
    expect(a.requests).toHaveLength(4);
  });

  it("follows a chain within the limit and reports the final URL", async () => {
    const b = await serve((_req, res) => res.end("final"));
    const a = await serve((req, res) =>
      req.url === "/one"
        ? res.writeHead(301, { location: "/two" }).end()
        : res.writeHead(302, { location: `http://b.example.test:${b.port}/done` }).end(),
    );
    const { client, calls } = setup();
    const response = await client.fetch(`http://a.example.test:${a.port}/one`);
    expect(await response.text()).toBe("final");
    expect(response.url).toBe(`http://b.example.test:${b.port}/done`);
    // Each hop connects to its own checked address (a cancelled redirect body may cost a socket).
    expect(new Set(calls.map((c) => c.address))).toEqual(
      new Set([FAKE_PUBLIC_V4, FAKE_PUBLIC_V4_B]),
    );
  });

  it("returns the redirect itself with redirect: manual, refuses it with redirect: error", async () => {
    const a = await serve(redirectTo("/elsewhere", 307));
    const { client } = setup();
    const manual = await client.fetch(`http://a.example.test:${a.port}/`, { redirect: "manual" });
    expect(manual.status).toBe(307);
    expect(manual.headers.get("location")).toBe("/elsewhere");
    expect(
      await reason(client.fetch(`http://a.example.test:${a.port}/`, { redirect: "error" })),
    ).toBe("REDIRECT_NOT_ALLOWED");
  });
});

describe("[C21] credentials on redirects", () => {
  const secrets = {
    authorization: "Bearer planted-token",
    cookie: "session=planted-cookie",
    "x-api-key": "planted-api-key",
    "proxy-authorization": "Basic planted",
    "x-trace": "keep-me",
  };

  it("[C21] drops Authorization, Cookie and caller-marked headers on a cross-origin hop (and 302 POST becomes GET)", async () => {
    const b = await serve((_req, res) => res.end("b"));
    const a = await serve(redirectTo(`http://b.example.test:${b.port}/landing`, 302));
    const { client } = setup();
    const response = await client.fetch(`http://a.example.test:${a.port}/post`, {
      method: "POST",
      headers: { ...secrets, "content-type": "application/json" },
      body: '{"q":1}',
      sensitiveHeaders: ["X-Api-Key"],
    });
    expect(await response.text()).toBe("b");
    expect(a.requests[0]?.headers.authorization).toBe(secrets.authorization);
    const landed = b.requests[0];
    expect(landed?.method).toBe("GET");
    expect(landed?.body).toBe("");
    expect(landed?.headers).not.toHaveProperty("authorization");
    expect(landed?.headers).not.toHaveProperty("cookie");
    expect(landed?.headers).not.toHaveProperty("x-api-key");
    expect(landed?.headers).not.toHaveProperty("proxy-authorization");
    expect(landed?.headers).not.toHaveProperty("content-type");
    expect(landed?.headers["x-trace"]).toBe("keep-me");
  });

  it("[C21] a different port is a different origin, and credentials stay dropped when the chain comes back", async () => {
    const a = await serve((req, res) => res.end(req.headers.authorization ?? "none"));
    const b = await serve(redirectTo(`http://a.example.test:${a.port}/back`, 307));
    const start = await serve(redirectTo(`http://a.example.test:${b.port}/other-port`, 307));
    const { client } = setup();
    const response = await client.fetch(`http://a.example.test:${start.port}/`, {
      headers: secrets,
    });
    expect(await response.text()).toBe("none");
    expect(b.requests[0]?.headers).not.toHaveProperty("authorization");
  });

  it("keeps credentials, method and body on a same-origin 307/308", async () => {
    const a = await serve((req, res) =>
      req.url === "/old" ? res.writeHead(308, { location: "/new" }).end() : res.end("moved"),
    );
    const { client } = setup();
    await (
      await client.fetch(`http://a.example.test:${a.port}/old`, {
        method: "POST",
        headers: secrets,
        body: "payload",
      })
    ).text();
    expect(a.requests[1]).toMatchObject({ method: "POST", url: "/new", body: "payload" });
    expect(a.requests[1]?.headers.authorization).toBe(secrets.authorization);
  });

  it("303 turns PUT into GET; a streamed body cannot be replayed for 307", async () => {
    const a = await serve((req, res) =>
      req.url === "/see"
        ? res.writeHead(303, { location: "/result" }).end()
        : req.url === "/temp"
          ? res.writeHead(307, { location: "/result" }).end()
          : res.end("r"),
    );
    const { client } = setup();
    await (
      await client.fetch(`http://a.example.test:${a.port}/see`, { method: "PUT", body: "x" })
    ).text();
    expect(a.requests[1]).toMatchObject({ method: "GET", url: "/result", body: "" });
    const streamed = client.fetch(`http://a.example.test:${a.port}/temp`, {
      method: "POST",
      body: Readable.from([Buffer.from("chunk")]),
    });
    expect(await reason(streamed)).toBe("REDIRECT_BODY_NOT_REPLAYABLE");
  });
});

// DNS rebinding: the socket goes to the address that was checked, and a name is resolved once
// per connection. Sockets only ever reach 127.0.0.1 (see test-support.ts).
import { afterEach, describe, expect, it } from "vitest";
import { isAppError } from "@secondshift/errors";
import { request } from "undici";
import { createOutboundClient, type OutboundClient } from "./client.ts";
import { createGuardedDispatcher } from "./dispatcher.ts";
import {
  FAKE_PUBLIC_V4,
  FAKE_PUBLIC_V4_B,
  FAKE_PUBLIC_V6,
  loopbackConnector,
  startServer,
  tableResolver,
  testPolicy,
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

describe("[C21] DNS rebinding", () => {
  it("[C21] connects to the first checked address with the host name kept in Host, and resolves once", async () => {
    server = await startServer((_req, res) => res.end("ok"));
    const { connector, calls } = loopbackConnector();
    const resolver = tableResolver({ "api.example.test": [FAKE_PUBLIC_V4, FAKE_PUBLIC_V4_B] });
    client = createOutboundClient(testPolicy({ resolver, connector }));
    const response = await client.fetch(`http://api.example.test:${server.port}/v1`);
    expect(await response.text()).toBe("ok");
    expect(resolver).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([
      expect.objectContaining({
        address: FAKE_PUBLIC_V4,
        family: 4,
        hostname: "api.example.test",
        port: server.port,
      }),
    ]);
    expect(server.requests[0]?.headers.host).toBe(`api.example.test:${server.port}`);
  });

  it("[C21] public first, private second: the first connection uses the checked public address, the next is refused", async () => {
    // Connection: close forces a new connection (and so a new resolution) for the second request.
    server = await startServer((_req, res) => res.setHeader("connection", "close").end("ok"));
    const { connector, calls } = loopbackConnector();
    const resolver = tableResolver({ "rebind.example.test": [[FAKE_PUBLIC_V4], ["127.0.0.1"]] });
    client = createOutboundClient(testPolicy({ resolver, connector }));
    const url = `http://rebind.example.test:${server.port}/`;
    expect(await (await client.fetch(url)).text()).toBe("ok");
    const second = await client.fetch(url).catch((error: unknown) => error);
    expect(isAppError(second) && second.reason).toBe("ADDRESS_NOT_PUBLIC");
    expect(resolver).toHaveBeenCalledTimes(2);
    // Exactly one socket, to the address checked at the time: never the rebound one.
    expect(calls.map((c) => c.address)).toEqual([FAKE_PUBLIC_V4]);
    expect(server.requests).toHaveLength(1);
  });

  it("[C21] a pooled connection is reused without resolving again", async () => {
    server = await startServer((_req, res) => res.end("ok"));
    const { connector, calls } = loopbackConnector();
    const resolver = tableResolver({ "pool.example.test": [[FAKE_PUBLIC_V6], ["10.0.0.1"]] });
    client = createOutboundClient(testPolicy({ resolver, connector }));
    for (let i = 0; i < 3; i += 1) {
      expect(await (await client.fetch(`http://pool.example.test:${server.port}/`)).text()).toBe(
        "ok",
      );
      // Let undici return the socket to the pool before the next request.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(resolver).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ address: FAKE_PUBLIC_V6, family: 6 });
  });

  it("[C21] the bare dispatcher guards libraries that use undici directly", async () => {
    server = await startServer((_req, res) => res.end("direct"));
    const { connector, calls } = loopbackConnector();
    const resolver = tableResolver({
      "sdk.example.test": [FAKE_PUBLIC_V4],
      "evil.example.test": ["169.254.169.254"],
    });
    const dispatcher = createGuardedDispatcher(testPolicy({ resolver, connector }));
    try {
      const ok = await request(`http://sdk.example.test:${server.port}/`, { dispatcher });
      expect(await ok.body.text()).toBe("direct");
      const refused = await request(`http://evil.example.test:${server.port}/`, {
        dispatcher,
      }).catch((e: unknown) => e);
      expect(isAppError(refused) && refused.reason).toBe("ADDRESS_NOT_PUBLIC");
      const literal = await request(`http://127.0.0.1:${server.port}/`, { dispatcher }).catch(
        (e: unknown) => e,
      );
      expect(isAppError(literal) && literal.reason).toBe("ADDRESS_NOT_PUBLIC");
      expect(calls.map((c) => c.address)).toEqual([FAKE_PUBLIC_V4]);
    } finally {
      await dispatcher.close();
    }
  });

  it("[C21] an operator-allowed private host connects to its private address", async () => {
    server = await startServer((_req, res) => res.end("internal"));
    const { connector, calls } = loopbackConnector();
    const resolver = tableResolver({ "ollama.internal": ["10.1.2.3"] });
    client = createOutboundClient(
      testPolicy({ resolver, connector, allowedPrivateHosts: ["ollama.internal"] }),
    );
    expect(await (await client.fetch(`http://ollama.internal:${server.port}/`)).text()).toBe(
      "internal",
    );
    expect(calls[0]?.address).toBe("10.1.2.3");
  });
});

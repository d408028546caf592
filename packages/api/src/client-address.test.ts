import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { clientAddressResolver } from "./client-address.ts";

const request = (peer: string, forwardedFor?: string) =>
  ({
    socket: { remoteAddress: peer },
    headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
  }) as unknown as IncomingMessage;

describe("the client address behind trusted proxies", () => {
  it("without trusted proxies, the TCP peer, whatever X-Forwarded-For claims", () => {
    const resolve = clientAddressResolver([]);
    expect(resolve(request("::ffff:203.0.113.7", "198.51.100.1"))).toBe("203.0.113.7");
  });

  it("behind a trusted proxy, the address the proxy received from", () => {
    const resolve = clientAddressResolver(["10.0.0.0/8"]);
    expect(resolve(request("10.1.2.3", "203.0.113.7"))).toBe("203.0.113.7");
  });

  it("a client cannot choose its address: hops it sent itself are left of what the proxy appended", () => {
    const resolve = clientAddressResolver(["10.0.0.0/8", "::1/128"]);
    // The client sent "X-Forwarded-For: 192.0.2.99"; the proxy appended the real address.
    expect(resolve(request("10.1.2.3", "192.0.2.99, 203.0.113.7"))).toBe("203.0.113.7");
    // Two trusted proxies in a row are both skipped.
    expect(resolve(request("::1", "192.0.2.99, 203.0.113.7, 10.9.9.9"))).toBe("203.0.113.7");
  });

  it("a request straight from an untrusted address keeps that address, header or not", () => {
    const resolve = clientAddressResolver(["10.0.0.0/8"]);
    expect(resolve(request("203.0.113.7", "10.0.0.1"))).toBe("203.0.113.7");
  });

  it("a trusted proxy with no or a garbled header: the proxy's own address", () => {
    const resolve = clientAddressResolver(["10.0.0.0/8"]);
    expect(resolve(request("10.1.2.3"))).toBe("10.1.2.3");
    expect(resolve(request("10.1.2.3", "not-an-address"))).toBe("10.1.2.3");
  });
});

// Who the client is, for rate limits and sessions. Behind a reverse proxy every request comes
// from the proxy's address, and X-Forwarded-For lists the hops (client first, each proxy
// appending the address it received from). Only hops the operator trusts are skipped: reading
// from the right, the first address that is not a trusted proxy is the client, so a client
// cannot choose its own address by sending the header itself.
import type { IncomingMessage } from "node:http";
import { BlockList, isIP } from "node:net";

export type ClientAddress = (req: IncomingMessage) => string;

/** `::ffff:192.0.2.1` (an IPv4 peer on a dual-stack socket) as `192.0.2.1`. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

function trustList(ranges: readonly string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [address = "", bits = ""] = range.split("/");
    list.addSubnet(address, Number(bits), isIP(address) === 6 ? "ipv6" : "ipv4");
  }
  return list;
}

/** The client address resolver for these trusted proxy ranges (CIDR; none: the TCP peer). */
export function clientAddressResolver(trustedProxies: readonly string[]): ClientAddress {
  const trusted = trustList(trustedProxies);
  const isTrusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? "ipv6" : "ipv4");
  };
  return (req) => {
    const peer = plain(req.socket.remoteAddress ?? "unknown");
    if (trustedProxies.length === 0 || !isTrusted(peer)) return peer;
    const header = req.headers["x-forwarded-for"];
    const hops = (Array.isArray(header) ? header.join(",") : (header ?? ""))
      .split(",")
      .map((hop) => plain(hop.trim()))
      .filter((hop) => hop !== "");
    for (let i = hops.length - 1; i >= 0; i--) {
      if (!isTrusted(hops[i]!)) return isIP(hops[i]!) === 0 ? peer : hops[i]!;
    }
    // Every hop is a trusted proxy: the leftmost is as close to the client as we can know.
    return hops[0] ?? peer;
  };
}

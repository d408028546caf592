// The address decision, pure and synchronous so it can be tested as a table. Range data comes
// from ipaddr.js; this file only adds what it does not decide for us: IPv6 outside 2000::/3,
// the embedded IPv4 of mapped / NAT64 / 6to4 forms, and the operator's allowances.
import ipaddr from "ipaddr.js";
import { isIP } from "node:net";
import {
  normaliseHostname,
  type OutboundPolicy,
  type ResolvedPolicy,
  resolvePolicy,
} from "./policy.ts";

export interface AddressClass {
  /** The address as it will be connected to (an IPv4-mapped IPv6 address becomes IPv4). */
  address: string;
  family: 4 | 6;
  /** ipaddr.js range name, prefixed by the wrapper for embedded forms, e.g. "nat64:loopback". */
  range: string;
  public: boolean;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR("2000::/3");
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");

// ipaddr.js calls these "unicast" when nothing more specific matched; only they are public.
function classifyV4(v4: ipaddr.IPv4): AddressClass {
  const range = v4.range();
  return { address: v4.toString(), family: 4, range, public: range === "unicast" };
}

function embeddedV4(parts: number[]): ipaddr.IPv4 {
  const [hi = 0, lo = 0] = parts;
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

function classifyV6(v6: ipaddr.IPv6): AddressClass {
  const text = v6.toString();
  if (v6.isIPv4MappedAddress()) {
    // ::ffff:a.b.c.d reaches a.b.c.d: judge (and connect to) the IPv4 address.
    const inner = classifyV4(v6.toIPv4Address());
    return { ...inner, range: `ipv4Mapped:${inner.range}` };
  }
  if (v6.match(NAT64_WELL_KNOWN)) {
    // The well-known NAT64 prefix translates to the embedded IPv4 address (last 32 bits).
    const inner = classifyV4(embeddedV4(v6.parts.slice(6, 8)));
    return { address: text, family: 6, range: `nat64:${inner.range}`, public: inner.public };
  }
  const range = v6.range();
  if (range === "6to4") {
    // 2002:AABB:CCDD::/48 tunnels to AA.BB.CC.DD.
    const inner = classifyV4(embeddedV4(v6.parts.slice(1, 3)));
    return { address: text, family: 6, range: `6to4:${inner.range}`, public: inner.public };
  }
  // Everything else in ipaddr's special list is refused (64:ff9b:1::/48 local-use NAT64 too: its
  // embedding is operator-defined and IANA marks it not globally reachable). Outside 2000::/3
  // nothing is assigned for global unicast, so "unicast" there (e.g. ::a.b.c.d) is refused too.
  return {
    address: text,
    family: 6,
    range,
    public: range === "unicast" && v6.match(GLOBAL_UNICAST_V6),
  };
}

/** Classifies a canonical IPv4 or IPv6 literal; returns undefined for anything else. */
export function classifyAddress(ip: string): AddressClass | undefined {
  // Strict: only what node:net accepts as an IP (no "127.1", no "0x7f.0.0.1"). URLs are
  // normalised by the WHATWG parser before they get here; resolvers return canonical forms.
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (isIP(bare) === 0) return undefined;
  const parsed = ipaddr.parse(bare);
  return parsed.kind() === "ipv4"
    ? classifyV4(parsed as ipaddr.IPv4)
    : classifyV6(parsed as ipaddr.IPv6);
}

/** True only for globally routable unicast addresses. */
export function isPublicAddress(ip: string): boolean {
  return classifyAddress(ip)?.public === true;
}

export type AddressDecision =
  | {
      allowed: true;
      address: string;
      family: 4 | 6;
      range: string;
      via: "public" | "allowed-cidr" | "allowed-host";
    }
  | { allowed: false; address: string; range: string; reason: "ADDRESS_NOT_PUBLIC" };

// An allowed host name may point at private services, but never at these: nothing legitimate
// lives there and cloud metadata does (169.254.169.254, fd00:ec2::254 is ULA but named hosts
// resolving into link-local ranges are refused). An explicit CIDR can still allow link-local.
const NEVER_VIA_HOST = new Set(["unspecified", "broadcast", "multicast", "linkLocal"]);

function inAllowedCidr(cls: AddressClass, policy: ResolvedPolicy): boolean {
  const parsed = ipaddr.parse(cls.address);
  return policy.allowedPrivateCidrs.some(
    ([range, bits]) => range.kind() === parsed.kind() && parsed.match(range, bits),
  );
}

/** The part of the policy that decides addresses. */
export type AddressAllowances = Pick<OutboundPolicy, "allowedPrivateHosts" | "allowedPrivateCidrs">;

/**
 * Decides whether netguard may connect to `ip` for `hostname` (the URL's host, used only for
 * SECONDSHIFT_ALLOWED_PRIVATE_HOSTS). Unspecified addresses are refused whatever the policy says.
 */
export function checkAddress(
  ip: string,
  policy: AddressAllowances,
  hostname?: string,
): AddressDecision {
  return decideAddress(ip, resolvePolicy({ production: true, ...policy }), hostname);
}

export function decideAddress(
  ip: string,
  policy: ResolvedPolicy,
  hostname?: string,
): AddressDecision {
  const cls = classifyAddress(ip);
  if (cls === undefined)
    return { allowed: false, address: ip, range: "invalid", reason: "ADDRESS_NOT_PUBLIC" };
  const base = { address: cls.address, family: cls.family, range: cls.range };
  if (cls.public) return { allowed: true, ...base, via: "public" };
  const innerRange = cls.range.split(":").pop() ?? cls.range;
  if (innerRange === "unspecified")
    return { allowed: false, ...base, reason: "ADDRESS_NOT_PUBLIC" };
  if (inAllowedCidr(cls, policy)) return { allowed: true, ...base, via: "allowed-cidr" };
  if (
    hostname !== undefined &&
    policy.allowedPrivateHosts.has(normaliseHostname(hostname)) &&
    !NEVER_VIA_HOST.has(innerRange)
  ) {
    return { allowed: true, ...base, via: "allowed-host" };
  }
  return { allowed: false, ...base, reason: "ADDRESS_NOT_PUBLIC" };
}

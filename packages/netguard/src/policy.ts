// The outbound policy is passed in by each app (which reads SECONDSHIFT_ALLOWED_PRIVATE_HOSTS /
// SECONDSHIFT_ALLOWED_PRIVATE_CIDRS from its env.ts); this package never reads the environment.
import ipaddr from "ipaddr.js";
import type { Socket } from "node:net";
import { netguardError } from "./errors.ts";

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (default: dns.promises.lookup with all: true). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Where a connector must connect: an address that netguard has already checked. */
export interface ConnectTarget {
  /** The checked IP address; the connector must connect to exactly this. */
  address: string;
  family: 4 | 6;
  port: number;
  protocol: "http:" | "https:";
  /** The URL's host name, for logs and for TLS SNI / certificate checks. */
  hostname: string;
  /** SNI name; undefined when the URL host is an IP literal (SNI must not carry an IP). */
  servername: string | undefined;
}

/** Opens a (TLS) socket to a checked address; the callback gets the connected socket. */
export type Connector = (
  target: ConnectTarget,
  callback: (error: Error | null, socket: Socket | null) => void,
) => void;

export interface OutboundPolicy {
  production: boolean;
  /** Plain http; honoured only outside production (development against local services). */
  allowHttp?: boolean;
  /** Exact host names the operator allows to resolve to private addresses, e.g. "ollama.internal". */
  allowedPrivateHosts: readonly string[];
  /** CIDR ranges the operator allows, e.g. "10.20.0.0/16". */
  allowedPrivateCidrs: readonly string[];
  /** Default 5. */
  maxRedirects?: number;
  /** Default 10 MiB. */
  maxResponseBytes?: number;
  /** Total time for headers and body; default 30 s. */
  timeoutMs?: number;
  resolver?: Resolver;
  connector?: Connector;
  /**
   * PEM certificates trusted besides Node's own roots: the operator's private certificate
   * authority for internal HTTPS services (SECONDSHIFT_EXTRA_CA_CERTS). Git reads the same
   * list (packages/repo-sync), so every outbound HTTPS client trusts exactly the same CAs.
   */
  trustedCaCerts?: readonly string[];
}

export interface ResolvedPolicy {
  production: boolean;
  allowHttp: boolean;
  allowedPrivateHosts: ReadonlySet<string>;
  allowedPrivateCidrs: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
  maxRedirects: number;
  maxResponseBytes: number;
  timeoutMs: number;
  resolver: Resolver | undefined;
  connector: Connector | undefined;
}

export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 30_000;

/** Lower-cases and drops a trailing dot, so "Ollama.Internal." matches "ollama.internal". */
export function normaliseHostname(hostname: string): string {
  const lower = hostname.toLowerCase();
  return lower.endsWith(".") ? lower.slice(0, -1) : lower;
}

function positiveInteger(
  value: number | undefined,
  fallback: number,
  name: string,
  allowZero = false,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    throw netguardError(
      "INVALID_POLICY",
      `netguard policy: ${name} must be a ${allowZero ? "non-negative" : "positive"} integer.`,
    );
  }
  return value;
}

function parseCidr(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  try {
    const [range, bits] = ipaddr.parseCIDR(text.trim());
    // Normalise ::ffff:a.b.c.d/96+n to the IPv4 range so it matches the checked (unmapped) form.
    if (range.kind() === "ipv6" && (range as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(range as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return [range, bits];
  } catch (cause) {
    throw netguardError(
      "INVALID_POLICY",
      `SECONDSHIFT_ALLOWED_PRIVATE_CIDRS: "${text}" is not a CIDR range; write it like 10.20.0.0/16 or fd12:3456::/48.`,
      cause,
    );
  }
}

export function resolvePolicy(policy: OutboundPolicy): ResolvedPolicy {
  return {
    production: policy.production,
    // Production always means https only, whatever allowHttp says.
    allowHttp: !policy.production && policy.allowHttp === true,
    allowedPrivateHosts: new Set(
      policy.allowedPrivateHosts.map((h) => normaliseHostname(h.trim())).filter(Boolean),
    ),
    allowedPrivateCidrs: policy.allowedPrivateCidrs.filter((c) => c.trim() !== "").map(parseCidr),
    maxRedirects: positiveInteger(policy.maxRedirects, DEFAULT_MAX_REDIRECTS, "maxRedirects", true),
    maxResponseBytes: positiveInteger(
      policy.maxResponseBytes,
      DEFAULT_MAX_RESPONSE_BYTES,
      "maxResponseBytes",
    ),
    timeoutMs: positiveInteger(policy.timeoutMs, DEFAULT_TIMEOUT_MS, "timeoutMs"),
    resolver: policy.resolver,
    connector: policy.connector,
  };
}

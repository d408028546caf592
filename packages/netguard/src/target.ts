// Checks a URL before anything is sent: scheme, host names that are never outbound targets,
// and IP literals. The WHATWG URL parser has already turned odd literals ("2130706433",
// "0x7f.1", "127.1", "[::ffff:127.0.0.1]") into canonical addresses, so they are checked as such.
import { decideAddress } from "./address.ts";
import {
  addressNotPublic,
  hostNotAllowed,
  httpNotEnabled,
  httpsRequired,
  netguardError,
} from "./errors.ts";
import { normaliseHostname, type ResolvedPolicy } from "./policy.ts";

// Cloud metadata services by name (their addresses are refused as link-local / ULA / CGNAT
// anyway; refusing the names makes the error clear and survives a hostile resolver).
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.azure.internal",
  "metadata.tencentyun.com",
  "metadata.oraclecloud.com",
]);

/** The URL host without IPv6 brackets and trailing dot, lower-cased. */
export function urlHostname(url: URL): string {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return normaliseHostname(host);
}

export function parseUrl(input: string | URL): URL {
  try {
    return new URL(input);
  } catch {
    // Do not echo the input: it may be a webhook URL with a token in it.
    throw netguardError(
      "INVALID_URL",
      "Outbound request refused: the URL is not a valid absolute URL.",
    );
  }
}

export function checkScheme(url: URL, policy: ResolvedPolicy): void {
  const host = urlHostname(url);
  if (url.protocol === "https:") return;
  if (url.protocol !== "http:") {
    throw netguardError(
      "UNSUPPORTED_SCHEME",
      `Outbound request to ${host} refused: only https URLs are allowed (got ${url.protocol.slice(0, 16)}).`,
    );
  }
  if (policy.production) throw httpsRequired(host);
  if (!policy.allowHttp) throw httpNotEnabled(host);
}

/** Refuses metadata / localhost names and non-public IP literals; nothing is resolved here. */
export function checkHostName(hostname: string, policy: ResolvedPolicy): void {
  if (METADATA_NAMES.has(hostname)) throw hostNotAllowed(hostname, "a cloud metadata service");
  if (hostname === "localhost" || hostname.endsWith(".localhost")) {
    if (!policy.allowedPrivateHosts.has(hostname)) {
      throw hostNotAllowed(
        hostname,
        "a loopback name; an operator can allow it with SECONDSHIFT_ALLOWED_PRIVATE_HOSTS",
      );
    }
  }
  const decision = decideAddress(hostname, policy, hostname);
  if (decision.range === "invalid") return; // a name, resolved later by the connector
  if (!decision.allowed) throw addressNotPublic(hostname, decision.address, decision.range);
}

/** Every check that can be made on the URL alone. */
export function checkUrl(url: URL, policy: ResolvedPolicy): void {
  checkScheme(url, policy);
  if (url.username !== "" || url.password !== "") {
    // Credentials in URLs leak into logs and survive redirects; require headers instead.
    throw netguardError(
      "INVALID_URL",
      `Outbound request to ${urlHostname(url)} refused: put credentials in a header, not in the URL.`,
    );
  }
  checkHostName(urlHostname(url), policy);
}

// Which remotes git may talk to, decided before git runs. The URL must carry no credentials;
// its scheme must be allowed (https; http only outside production when the outbound policy
// allows it; file only when the operator opts in, for local development and tests). The
// host is resolved once here and every answer goes through netguard's checkAddress; git is
// then pinned to the checked address with http.curloptResolve, so a DNS answer that changes
// between our check and git's connect (rebinding) cannot move it to a private address.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { AppError } from "@secondshift/errors";
import { checkAddress, type OutboundPolicy } from "@secondshift/netguard";

export interface GitRemotePolicy {
  /** The same policy every outbound request uses (production, allowHttp, private allowances, resolver). */
  outbound: OutboundPolicy;
  /** file:// remotes; off in production. Only for local development and tests. */
  allowFileRemotes?: boolean;
}

export interface CheckedRemote {
  url: URL;
  protocol: "https" | "http" | "file";
  /** `host:port:address` for http.curloptResolve; undefined for file remotes. */
  pin: string | undefined;
}

const refuse = (message: string, reason: string) =>
  new AppError("BAD_REQUEST", message, { reason });

function parse(cloneUrl: string): URL {
  try {
    return new URL(cloneUrl);
  } catch {
    throw refuse("The repository's clone URL is not a valid URL.", "INVALID_CLONE_URL");
  }
}

export async function checkRemote(
  cloneUrl: string,
  policy: GitRemotePolicy,
): Promise<CheckedRemote> {
  const url = parse(cloneUrl);
  if (url.username !== "" || url.password !== "") {
    throw refuse(
      "The clone URL contains credentials. Remove them from the URL and set the credential on the repository's connection.",
      "CREDENTIALS_IN_URL",
    );
  }
  if (url.protocol === "file:") {
    if (policy.allowFileRemotes !== true || policy.outbound.production) {
      throw refuse(
        "file:// repositories are not allowed on this server; use an https clone URL.",
        "UNSUPPORTED_SCHEME",
      );
    }
    return { url, protocol: "file", pin: undefined };
  }
  const httpAllowed = !policy.outbound.production && policy.outbound.allowHttp === true;
  if (url.protocol !== "https:" && !(url.protocol === "http:" && httpAllowed)) {
    throw refuse(
      "The clone URL must use https.",
      url.protocol === "http:" ? "HTTPS_REQUIRED" : "UNSUPPORTED_SCHEME",
    );
  }
  if (url.search !== "" || url.hash !== "") {
    throw refuse("The clone URL must not have a query or fragment.", "INVALID_CLONE_URL");
  }
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port);
  const answers =
    isIP(host) !== 0
      ? [host]
      : (
          await (
            policy.outbound.resolver ?? ((h: string) => lookup(h, { all: true, verbatim: true }))
          )(host).catch(() => {
            throw new AppError("BAD_GATEWAY", `The repository host ${host} did not resolve.`, {
              reason: "DNS_FAILED",
            });
          })
        ).map((a) => a.address);
  if (answers.length === 0)
    throw new AppError("BAD_GATEWAY", `The repository host ${host} did not resolve.`, {
      reason: "DNS_FAILED",
    });
  // Any non-allowed answer refuses the whole host, as netguard does for HTTP requests.
  let pinned: string | undefined;
  for (const address of answers) {
    const decision = checkAddress(address, policy.outbound, host);
    if (!decision.allowed) {
      throw new AppError(
        "FORBIDDEN",
        `The repository host ${host} resolves to an address outbound requests may not reach.`,
        {
          reason: "ADDRESS_NOT_PUBLIC",
        },
      );
    }
    pinned ??= decision.family === 6 ? `[${decision.address}]` : decision.address;
  }
  return {
    url,
    protocol: url.protocol === "https:" ? "https" : "http",
    pin: `${host}:${port}:${pinned ?? ""}`,
  };
}

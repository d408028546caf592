// The undici `connect` hook: every socket the dispatcher opens goes through here, whoever made
// the request (our fetch, an SDK given the dispatcher). It resolves once, checks, and hands the
// connector the checked IP, so the socket goes to exactly that address: no second lookup
// happens and DNS rebinding cannot switch it. TLS keeps the URL's host name for SNI and
// certificate checks, and undici keeps it in the Host header.
import { buildConnector } from "undici";
import { isIP, type Socket } from "node:net";
import type { ConnectionOptions } from "node:tls";
import { connectFailed, isNetguardError, netguardError } from "./errors.ts";
import { normaliseHostname, type Connector, type ResolvedPolicy } from "./policy.ts";
import { resolveChecked } from "./resolve.ts";
import { checkHostName } from "./target.ts";

/** TLS settings for the default connector (e.g. a private CA for an internal service). */
export type TlsOptions = Pick<ConnectionOptions, "ca" | "cert" | "key" | "minVersion">;

// Defense in depth: if anything ever asked node:net to resolve a name here, fail loudly.
function noLookup(hostname: string, _options: unknown, callback: (error: Error) => void): void {
  callback(new Error(`netguard: refusing a second DNS lookup for ${hostname}`));
}

/** The default connector: undici's own socket code, pointed at the checked IP. */
export function createDefaultConnector(tls: TlsOptions = {}): Connector {
  const connect = buildConnector({ ...tls, lookup: noLookup } as buildConnector.BuildOptions);
  return (target, callback) => {
    connect(
      {
        hostname: target.address,
        host: target.address,
        protocol: target.protocol,
        port: String(target.port),
        servername: target.servername ?? null,
      } as buildConnector.Options,
      (error, socket) => callback(error, error ? null : socket),
    );
  };
}

type UndiciConnectOptions = { hostname: string; protocol: string; port: string };
type UndiciCallback = (...args: [null, Socket] | [Error, null]) => void;

export function createGuardedConnect(policy: ResolvedPolicy, connector: Connector) {
  return (options: UndiciConnectOptions, callback: UndiciCallback): void => {
    const hostname = normaliseHostname(options.hostname.replace(/^\[|\]$/g, ""));
    const protocol = options.protocol === "https:" ? "https:" : "http:";
    const port = Number(options.port) || (protocol === "https:" ? 443 : 80);
    void (async () => {
      // Repeated here (not only in fetch) so a caller using the bare dispatcher is guarded too.
      if (protocol === "http:" && !policy.allowHttp) {
        throw netguardError(
          "HTTPS_REQUIRED",
          `Outbound connection to ${hostname} refused: https is required.`,
        );
      }
      checkHostName(hostname, policy);
      const [first] = await resolveChecked(hostname, policy);
      if (first === undefined) throw netguardError("DNS_FAILED", `Could not resolve ${hostname}.`);
      const servername = isIP(hostname) === 0 ? hostname : undefined;
      return await new Promise<Socket>((resolve, reject) => {
        connector(
          { address: first.address, family: first.family, port, protocol, hostname, servername },
          (error, socket) =>
            error || !socket ? reject(error ?? new Error("no socket")) : resolve(socket),
        );
      });
    })().then(
      (socket) => callback(null, socket),
      (error: unknown) => {
        callback(isNetguardError(error) ? error : connectFailed(hostname, error), null);
      },
    );
  };
}

// A plain undici Agent whose only special part is the guarded connect hook. Redirects, size and
// time limits live in the client (fetch), because undici's built-in redirect follower would
// neither re-run our URL checks nor drop custom credential headers.
import { rootCertificates } from "node:tls";
import { Agent } from "undici";
import { createDefaultConnector, createGuardedConnect, type TlsOptions } from "./connector.ts";
import { resolvePolicy, type OutboundPolicy } from "./policy.ts";

export interface DispatcherOptions {
  /** TLS settings for the default connector, e.g. `{ ca }` for an internal CA or tests. */
  tls?: TlsOptions;
}

/**
 * An undici dispatcher that connects only to checked addresses. Use it directly only with
 * clients that do not follow redirects themselves; otherwise prefer createOutboundClient().fetch.
 */
export function createGuardedDispatcher(
  policy: OutboundPolicy,
  options: DispatcherOptions = {},
): Agent {
  const resolved = resolvePolicy(policy);
  const connector =
    resolved.connector ?? createDefaultConnector(options.tls ?? trustedTlsOptions(policy));
  return new Agent({
    connect: createGuardedConnect(resolved, connector) as unknown as Agent.Options["connect"],
  });
}

/** Node's roots plus the operator's CA: `ca` replaces the default list, so both are named. */
export function trustedTlsOptions(policy: OutboundPolicy): TlsOptions | undefined {
  const extra = policy.trustedCaCerts ?? [];
  return extra.length > 0 ? { ca: [...rootCertificates, ...extra] } : undefined;
}

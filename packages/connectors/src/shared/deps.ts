// What the factory needs from the app: a guarded fetch (netguard), a logger, and the name this
// client gives itself to services. Nothing here reads the environment.
import type { Logger } from "@secondshift/logging";
import type { OutboundClient } from "@secondshift/netguard";

/** A WHATWG-fetch-compatible function; in the worker it is netguard's guarded fetch. */
export type OutboundFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export interface ConnectorDeps {
  outbound: OutboundFetch;
  logger: Logger;
  clientInfo: { name: string; version: string };
  /** Clock, for token expiry; tests inject one. */
  now?: () => number;
}

/**
 * netguard's client.fetch as a plain fetch. netguard types its arguments with undici's own
 * RequestInit/Response classes, which are the same at runtime as Node's global fetch types but
 * distinct to TypeScript (more so under the DOM library the web app compiles with); the casts are
 * the only bridge needed.
 */
export function outboundFromNetguard(client: Pick<OutboundClient, "fetch">): OutboundFetch {
  return (input, init) =>
    // Needed only where the DOM library is loaded (the web app), so lint here sees no need.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    client.fetch(
      input,
      init as Parameters<OutboundClient["fetch"]>[1],
    ) as unknown as Promise<Response>;
}

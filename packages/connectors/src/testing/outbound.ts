// Test wiring: the real netguard client with a policy that allows loopback explicitly (as an
// operator would allow an internal host), so tests exercise the same guarded fetch as the worker.
import { createOutboundClient } from "@secondshift/netguard";
import { createLogger, createMemorySink, SecretMasker } from "@secondshift/logging";
import { outboundFromNetguard, type ConnectorDeps, type OutboundFetch } from "../shared/deps.ts";

export function loopbackClient() {
  return createOutboundClient({
    production: false,
    allowHttp: true,
    allowedPrivateHosts: ["localhost"],
    allowedPrivateCidrs: ["127.0.0.0/8", "::1/128"],
    timeoutMs: 60_000,
  });
}

export interface RecordedRequest {
  method: string;
  url: string;
}

/** Deps for tests: guarded loopback fetch that records every request, and a logger into memory. */
export function testDeps(overrides: Partial<ConnectorDeps> = {}) {
  const client = loopbackClient();
  const guarded = outboundFromNetguard(client);
  const requests: RecordedRequest[] = [];
  const outbound: OutboundFetch = (input, init) => {
    requests.push({ method: init?.method ?? "GET", url: String(input) });
    return guarded(input, init);
  };
  const sink = createMemorySink();
  // No masker registrations: the [C25] tests check that nothing is logged in the first place.
  const logger = createLogger({
    name: "connectors-test",
    level: "debug",
    destination: sink.stream,
    masker: new SecretMasker(),
  });
  const deps: ConnectorDeps = {
    outbound,
    logger,
    clientInfo: { name: "secondshift-test", version: "0.0.0" },
    ...overrides,
  };
  return { deps, requests, logs: sink.text, close: () => client.close() };
}

export function callOptions(overrides: Record<string, unknown> = {}) {
  return {
    signal: new AbortController().signal,
    timeoutMs: 10_000,
    maxResultBytes: 64 * 1024,
    scope: { repositoryFullName: "acme/widgets" },
    ...overrides,
  };
}

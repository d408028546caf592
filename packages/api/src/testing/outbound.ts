// The web process's outbound wiring as apps/web builds it — netguard's client, the connectors on
// top of it, the broker's tool discovery — with a policy that allows loopback explicitly (as an
// operator would allow an internal host), so tests exercise the same guarded path.
import { createToolDiscovery, tokenEndpointRefresher } from "@secondshift/broker";
import { closeConnectors, createConnectors, outboundFromNetguard } from "@secondshift/connectors";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import { createLogger, createMemorySink } from "@secondshift/logging";
import { createOutboundClient } from "@secondshift/netguard";

export function loopbackOutbound(options: { allowLoopback?: boolean } = {}) {
  const allow = options.allowLoopback ?? true;
  const client = createOutboundClient({
    production: false,
    allowHttp: true,
    allowedPrivateHosts: allow ? ["localhost"] : [],
    allowedPrivateCidrs: allow ? ["127.0.0.0/8", "::1/128"] : [],
    timeoutMs: 20_000,
  });
  return { client, fetch: outboundFromNetguard(client) };
}

export function testDiscovery(db: Db, keyring: Keyring, options: { allowLoopback?: boolean } = {}) {
  const outbound = loopbackOutbound(options);
  const sink = createMemorySink();
  const connectors = createConnectors({
    outbound: outbound.fetch,
    logger: createLogger({ name: "discovery-test", destination: sink.stream }),
    clientInfo: { name: "secondshift-test", version: "0.0.0" },
  });
  const discovery = createToolDiscovery({
    db,
    keyring,
    connectors,
    timeoutMs: 20_000,
    oauthRefresher: tokenEndpointRefresher(outbound.fetch),
  });
  return {
    discovery,
    outbound: outbound.fetch,
    logs: sink.text,
    close: async () => {
      await closeConnectors(connectors);
      await outbound.client.close();
    },
  };
}

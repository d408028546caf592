// Calls the web process makes on the owner's behalf — tool discovery, the model provider check
// and OAuth connection of MCP servers — leave through netguard like every outbound call (C21),
// under the operator's policy.
import { createToolDiscovery, tokenEndpointRefresher } from "@secondshift/broker";
import {
  closeConnectors,
  createConnectors,
  createMcpAuthorizer,
  outboundFromNetguard,
} from "@secondshift/connectors";
import type { Keyring } from "@secondshift/crypto";
import type { Db } from "@secondshift/db";
import type { Logger, SecretMasker } from "@secondshift/logging";
import {
  createDestinationChecker,
  createOutboundClient,
  type OutboundPolicy,
} from "@secondshift/netguard";

/** The owner waits for discovery in the page; a slow service gets this long. */
const DISCOVERY_TIMEOUT_MS = 30_000;

export function buildOwnerOutbound(deps: {
  db: Db;
  keyring: Keyring;
  logger: Logger;
  masker: SecretMasker;
  policy: OutboundPolicy;
}) {
  const client = createOutboundClient(deps.policy);
  const outbound = outboundFromNetguard(client);
  const connectors = createConnectors({
    outbound,
    logger: deps.logger,
    clientInfo: { name: "secondshift", version: "0.1.0" },
  });
  const discovery = createToolDiscovery({
    db: deps.db,
    keyring: deps.keyring,
    connectors,
    masker: deps.masker,
    timeoutMs: DISCOVERY_TIMEOUT_MS,
    oauthRefresher: tokenEndpointRefresher(outbound),
  });
  return {
    discovery,
    outbound,
    mcpOAuth: createMcpAuthorizer(outbound, "SecondShift"),
    // Owner URLs are checked at save under the same policy (the send-time guard decides again).
    destinations: createDestinationChecker(deps.policy),
    close: async () => {
      await closeConnectors(connectors);
      await client.close();
    },
  };
}

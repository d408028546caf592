// The outbound client, the connectors and the tool broker: everything that calls out of the
// worker on a run's behalf (C20: never from the sandbox).
import { createBroker, createBrokerMetrics, tokenEndpointRefresher } from "@secondshift/broker";
import {
  closeConnectors,
  createConnectors,
  createRepositoryTokenMinter,
  disposeRun,
  outboundFromNetguard,
} from "@secondshift/connectors";
import { createOutboundClient } from "@secondshift/netguard";
import type { WorkerServices } from "./services.ts";
import type { WorkerSettings } from "./settings.ts";

const BROKER_LIMITS = {
  timeoutMs: 60_000,
  maxResultBytes: 256 * 1024,
  maxStringLength: 64 * 1024,
  maxArrayItems: 1000,
};

export function buildToolBroker(settings: WorkerSettings, services: WorkerServices) {
  const { db, logger, masker } = services;
  const client = createOutboundClient(settings.outbound);
  const clientInfo = { name: "secondshift", version: "0.1.0" };
  const connectors = createConnectors({
    outbound: outboundFromNetguard(client),
    logger,
    clientInfo,
  });
  // GitHub App installation tokens for repository fetches (runs and syncs), through netguard.
  const mintInstallationToken = createRepositoryTokenMinter({
    outbound: outboundFromNetguard(client),
    userAgent: `${clientInfo.name}/${clientInfo.version}`,
  });
  // OAuth refreshes leave through netguard like every other call (C21), once per expiry across
  // workers (the broker holds the connection row's lock while it refreshes, C26).
  const oauthRefresher = tokenEndpointRefresher(outboundFromNetguard(client));
  const broker = createBroker({
    db,
    pool: services.pool,
    keyring: settings.keyring,
    connectors,
    logger,
    masker,
    limits: BROKER_LIMITS,
    oauthRefresher,
    ...(services.metrics ? { metrics: createBrokerMetrics(services.metrics) } : {}),
  });

  /** At the run's end: the broker drops the run's plan cache, the connectors its sessions. */
  async function releaseRun(runId: string): Promise<void> {
    broker.release(runId);
    await disposeRun(connectors, runId);
  }

  async function close(): Promise<void> {
    await closeConnectors(connectors);
    await client.close();
  }

  // oauthRefresher is also what owner-triggered tool discovery (listConnectionTools) takes.
  return {
    client,
    connectors,
    broker,
    oauthRefresher,
    mintInstallationToken,
    releaseRun,
    close,
  };
}

export type ToolBroker = ReturnType<typeof buildToolBroker>;

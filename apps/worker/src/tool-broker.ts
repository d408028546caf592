// The outbound client, the connectors and the tool broker: everything that calls out of the
// worker on a run's behalf (C20: never from the sandbox).
import { createBroker } from "@secondshift/broker";
import {
  closeConnectors,
  createConnectors,
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
  const connectors = createConnectors({
    outbound: outboundFromNetguard(client),
    logger,
    clientInfo: { name: "secondshift", version: "0.1.0" },
  });
  const broker = createBroker({
    db,
    ...(services.pool ? { pool: services.pool } : {}),
    keyring: settings.keyring,
    connectors,
    logger,
    masker,
    limits: BROKER_LIMITS,
  });

  /**
   * At the run's end, before it is recorded: the broker writes the run's pending audit outcomes
   * (rejects with AUDIT_UNAVAILABLE if it cannot) and the connectors drop the run's sessions.
   * Both are attempted; the audit failure is the one reported.
   */
  async function releaseRun(runId: string): Promise<void> {
    const [audit, sessions] = await Promise.allSettled([
      broker.forget(runId),
      disposeRun(connectors, runId),
    ]);
    if (audit.status === "rejected") throw audit.reason;
    if (sessions.status === "rejected") throw sessions.reason;
  }

  async function close(): Promise<void> {
    // Outcomes of tool calls that ended after their run was released (a cancelled run's call
    // still at the connector) are written now rather than after their delay.
    await broker
      .flush()
      .catch((err: unknown) => logger.error({ err }, "writing pending tool-call audit failed"));
    await closeConnectors(connectors);
    await client.close();
  }

  return { client, connectors, broker, releaseRun, close };
}

export type ToolBroker = ReturnType<typeof buildToolBroker>;

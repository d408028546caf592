// Broker metrics, registered on the registry the worker passes in: every tool call by outcome,
// and refusals by reason (the closed set in refusals.ts, so the label set is bounded).
import { Counter, type Registry } from "prom-client";
import { refusalReasons, type RefusalReason } from "./refusals.ts";

export interface BrokerMetrics {
  /** outcome: ok, tool_error (the tool answered with an error) or refused. */
  calls: Counter<"outcome">;
  refusals: Counter<"reason">;
}

export function createBrokerMetrics(registry: Registry): BrokerMetrics {
  const refusals = new Counter({
    name: "secondshift_broker_refusals_total",
    help: "Tool calls the broker refused or that failed, by reason (packages/broker/src/refusals.ts).",
    labelNames: ["reason"],
    registers: [registry],
  });
  // Every reason starts at 0, so rate() works from the first refusal on.
  for (const reason of Object.keys(refusalReasons) as RefusalReason[]) refusals.inc({ reason }, 0);
  return {
    calls: new Counter({
      name: "secondshift_broker_calls_total",
      help: "Tool calls through the broker, by outcome.",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    refusals,
  };
}

// Webhook delivery metrics, registered on the registry the worker passes in.
import { Counter, type Registry } from "prom-client";

export interface WebhookMetrics {
  /** Failed delivery attempts; `final`: "true" when the delivery is given up, else retried. */
  failures: Counter<"final">;
}

export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  const failures = new Counter({
    name: "secondshift_webhook_delivery_failures_total",
    help: "Webhook delivery attempts that failed (final=true: no retry is left, the report is lost).",
    labelNames: ["final"],
    registers: [registry],
  });
  for (const final of ["true", "false"]) failures.inc({ final }, 0);
  return { failures };
}

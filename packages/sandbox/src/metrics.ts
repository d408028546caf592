// Sandbox metrics, registered on the registry the worker passes in.
import { Histogram, type Registry } from "prom-client";

export interface SandboxMetrics {
  /** Seconds from the create call to a started container, by runtime and outcome. */
  startSeconds: Histogram<"runtime" | "outcome">;
}

export function createSandboxMetrics(registry: Registry): SandboxMetrics {
  return {
    startSeconds: new Histogram({
      name: "secondshift_sandbox_start_seconds",
      help: "Time to create and start a sandbox container (runtime check included).",
      labelNames: ["runtime", "outcome"],
      buckets: [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30],
      registers: [registry],
    }),
  };
}

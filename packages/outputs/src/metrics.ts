// Outputs metrics, registered on the registry the worker passes in: how many outputs were
// applied or failed after their runs, per kind. A rising `FAILED` count is what an operator
// watches (an App without a permission, GitHub refusing content).
import { OUTPUT_KINDS } from "@secondshift/vocabulary";
import { Counter, type Registry } from "prom-client";

export interface OutputMetrics {
  settled: Counter<"kind" | "state">;
}

export function createOutputMetrics(registry: Registry): OutputMetrics {
  const settled = new Counter({
    name: "secondshift_outputs_settled_total",
    help: "Outputs written to GitHub (state=APPLIED) or given up (state=FAILED) after their runs.",
    labelNames: ["kind", "state"],
    registers: [registry],
  });
  for (const kind of OUTPUT_KINDS)
    for (const state of ["APPLIED", "FAILED"]) settled.inc({ kind, state }, 0);
  return { settled };
}

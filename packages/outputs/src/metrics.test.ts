import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createOutputMetrics } from "./metrics.ts";

describe("outputs metrics", () => {
  it("counts settled outputs per kind and state, every series present from the start", async () => {
    const registry = new Registry();
    const metrics = createOutputMetrics(registry);
    metrics.settled.inc({ kind: "pull_request", state: "APPLIED" });
    const text = await registry.metrics();
    expect(text).toContain(
      'secondshift_outputs_settled_total{kind="pull_request",state="APPLIED"} 1',
    );
    expect(text).toContain('secondshift_outputs_settled_total{kind="comment",state="FAILED"} 0');
  });
});

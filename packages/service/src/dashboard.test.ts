// docs/grafana-dashboard.json queries only metrics the services define: the ones each package's
// metrics.ts registers, and Node's process metrics of createMetricsRegistry.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createMetricsRegistry } from "./metrics.ts";

const root = resolve(import.meta.dirname, "../../..");
const owners = ["scheduler", "sandbox", "model-gateway", "broker", "webhooks"];

async function definedNames(): Promise<Set<string>> {
  const names = new Set(
    (await createMetricsRegistry("test").getMetricsAsJSON()).map((m) => m.name),
  );
  for (const owner of owners) {
    const source = await readFile(resolve(root, "packages", owner, "src/metrics.ts"), "utf8");
    for (const m of source.matchAll(/name: "(secondshift_\w+)"/g)) names.add(m[1]!);
  }
  return names;
}

describe("the Grafana dashboard", () => {
  it("uses only metric names the services define, and every package's metrics appear in it", async () => {
    const dashboard = JSON.parse(
      await readFile(resolve(root, "docs/grafana-dashboard.json"), "utf8"),
    ) as { panels: Array<{ targets: Array<{ expr: string }> }> };
    const used = new Set(
      dashboard.panels
        .flatMap((p) => p.targets.map((t) => t.expr))
        .flatMap((expr) => [...expr.matchAll(/secondshift_\w+/g)].map((m) => m[0]))
        .map((name) => name.replace(/_(bucket|count|sum)$/, "")),
    );
    const defined = await definedNames();
    expect([...used].filter((name) => !defined.has(name))).toEqual([]);
    const packaged = [...defined].filter((n) => !/^secondshift_(process|nodejs)_/.test(n));
    expect(packaged.filter((name) => !used.has(name))).toEqual([]);
  });
});

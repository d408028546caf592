// The gateway's metrics after real requests through it: latency by provider / model / outcome,
// tokens as charged to the run's budget, and refused requests.
import Anthropic from "@anthropic-ai/sdk";
import { Registry } from "prom-client";
import { describe, expect } from "vitest";
import { createGatewayMetrics, modelLabel } from "./metrics.ts";
import { seedRun } from "./testing/fixtures.ts";
import { gatewayTest } from "./testing/gateway-test.ts";

const registry = new Registry();
const test = gatewayTest({ metrics: createGatewayMetrics(registry) });

async function series(name: string) {
  const metric = registry.getSingleMetric(name);
  if (!metric) throw new Error(`${name} is not registered`);
  return (await metric.get()).values;
}

describe("gateway metrics", () => {
  test("counts a served request's latency and charged tokens by provider and model", async ({
    db,
    gw,
    provider,
  }) => {
    const run = await seedRun(db, gw.keyring, {
      kind: "ANTHROPIC",
      baseUrl: provider.url,
      providerKey: "sk-metrics-key-0123456789",
      budget: 100_000,
    });
    const client = new Anthropic({ apiKey: run.token, baseURL: gw.url, maxRetries: 0 });
    const messages = [{ role: "user" as const, content: "Count me." }];
    await client.messages.create({ model: "cache", max_tokens: 100, messages });
    await expect(
      client.messages.create({ model: "error-500", max_tokens: 100, messages }),
    ).rejects.toThrow();
    await fetch(`${gw.url}/v1/messages`, { method: "POST", body: "{}" }); // no token: refused
    await gw.gateway.settled();
    const billed = provider.billed.at(-1)!;

    const tokens = await series("secondshift_gateway_tokens_total");
    const served = { provider: "anthropic", model: "cache" };
    expect(tokens).toEqual(
      expect.arrayContaining([
        { labels: { ...served, kind: "input" }, value: billed.input },
        { labels: { ...served, kind: "output" }, value: billed.output },
        { labels: { ...served, kind: "cache" }, value: billed.cacheRead + billed.cacheWrite },
      ]),
    );

    const latency = await series("secondshift_gateway_request_seconds");
    const count = (labels: Record<string, string>) =>
      latency.find(
        (v) =>
          (v as { metricName?: string }).metricName ===
            "secondshift_gateway_request_seconds_count" &&
          Object.entries(labels).every(([k, want]) => v.labels[k] === want),
      )?.value;
    expect(count({ ...served, outcome: "ok" })).toBe(1);
    // The provider refused the model: its name is not kept as a label.
    expect(count({ provider: "anthropic", model: "other", outcome: "provider_error" })).toBe(1);
    expect(count({ provider: "none", model: "other", outcome: "refused" })).toBe(1);
  });

  test("keeps a model name only when the provider served it and it looks like a model id", () => {
    expect(modelLabel({ model: "claude-sonnet-4-5" }, 200)).toBe("claude-sonnet-4-5");
    expect(modelLabel({ model: "claude-sonnet-4-5" }, 404)).toBe("other");
    expect(modelLabel({ model: "x".repeat(200) }, 200)).toBe("other");
    expect(modelLabel({ model: "a b\n" }, 200)).toBe("other");
    expect(modelLabel(null, null)).toBe("other");
  });
});

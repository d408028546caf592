// Gateway metrics, registered on the registry the app passes in. `provider` is the provider
// family (anthropic, openai); `model` is the model the request named, kept only when the
// provider answered 2xx (so it is a model the provider serves) and it looks like a model id:
// anything else is "other", so a client cannot grow the label set at will.
import { Counter, Histogram, type Registry } from "prom-client";

export interface GatewayMetrics {
  requestSeconds: Histogram<"provider" | "model" | "outcome">;
  tokens: Counter<"provider" | "model" | "kind">;
}

export function createGatewayMetrics(registry: Registry): GatewayMetrics {
  return {
    requestSeconds: new Histogram({
      name: "secondshift_gateway_request_seconds",
      help: "Model request latency as the client saw it (settlement excluded), by outcome.",
      labelNames: ["provider", "model", "outcome"],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      registers: [registry],
    }),
    tokens: new Counter({
      name: "secondshift_gateway_tokens_total",
      help: "Tokens charged to run budgets, by kind (input, output, cache).",
      labelNames: ["provider", "model", "kind"],
      registers: [registry],
    }),
  };
}

const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,99}$/;

/** The `model` label: the requested model when the provider served it, else "other". */
export function modelLabel(json: Record<string, unknown> | null, upstreamStatus: number | null) {
  const model = json?.model;
  const served = upstreamStatus !== null && upstreamStatus >= 200 && upstreamStatus < 300;
  return served && typeof model === "string" && MODEL_ID.test(model) ? model : "other";
}

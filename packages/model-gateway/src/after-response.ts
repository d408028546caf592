// What the gateway does once a request's response has gone out: one metrics sample, the
// settlement of an admitted request's reservation, and one log line. The latency reported is
// what the client waited; the settlement is not part of it.
import { exhaustBudget } from "@secondshift/run-lifecycle";
import type { Admitted } from "./admission.ts";
import { settle, type Charge } from "./budget.ts";
import { modelLabel } from "./metrics.ts";
import type { GatewayDeps } from "./options.ts";
import type { ForwardResult } from "./proxy.ts";
import type { InspectedRequest } from "./request-body.ts";
import type { Route } from "./routes.ts";

/** A request that got past admission, however it ended. */
export interface Served {
  admitted: Admitted;
  inspected: InspectedRequest;
  /** Null when it failed before or while forwarding (nothing came back). */
  result: ForwardResult | null;
  /** The HTTP status the client got. */
  status: number;
}

export const elapsedMs = (started: number) => +(performance.now() - started).toFixed(3);

/** A request refused before admission: nothing was reserved, so nothing is settled. */
export function recordRefused(deps: GatewayDeps, route: Route, status: number, started: number) {
  const latencyMs = elapsedMs(started);
  deps.metrics?.requestSeconds.observe(
    { provider: "none", model: "other", outcome: "refused" },
    latencyMs / 1000,
  );
  deps.logger.info({ path: route.path, status, latencyMs }, "model request refused");
}

export async function recordServed(
  deps: GatewayDeps,
  route: Route,
  served: Served,
  started: number,
): Promise<void> {
  const charge = chargeFor(served);
  const latencyMs = elapsedMs(started);
  observe(deps, served, charge, latencyMs);
  await settleRequest(deps, served.admitted, charge);
  const { admitted, result } = served;
  deps.logger.info(
    {
      runId: admitted.runId,
      workspaceId: admitted.workspaceId,
      path: route.path,
      status: served.status,
      upstreamStatus: result?.upstreamStatus ?? null,
      outcome: result?.outcome ?? "refused",
      usage: result?.usage ?? null,
      reserved: admitted.reserved,
      charged: charge.input + charge.output + charge.cache,
      latencyMs,
    },
    "model request",
  );
}

function chargeFor({ admitted, inspected, result }: Served): Charge {
  if (result?.usage) return result.usage;
  // Usage never arrived (stream cut, client gone, timeout): charge the whole reservation.
  if (result?.mayHaveCharged)
    return {
      input: Math.min(inspected.inputEstimate, admitted.reserved),
      output: admitted.grantedOutput * admitted.choices,
      cache: 0,
    };
  return { input: 0, output: 0, cache: 0 };
}

function observe(deps: GatewayDeps, served: Served, charge: Charge, latencyMs: number): void {
  if (!deps.metrics) return;
  const provider = served.admitted.provider?.kind.toLowerCase() ?? "none";
  const model = modelLabel(served.inspected.json, served.result?.upstreamStatus ?? null);
  const outcome = served.result?.outcome ?? "refused";
  deps.metrics.requestSeconds.observe({ provider, model, outcome }, latencyMs / 1000);
  for (const kind of ["input", "output", "cache"] as const) {
    if (charge[kind] > 0) deps.metrics.tokens.inc({ provider, model, kind }, charge[kind]);
  }
}

/**
 * Settles a finished request, right after its response has gone out: the client's latency does
 * not include it, and its reservation keeps the budget safe until it lands. A run that has now
 * used its budget ends here (C17).
 */
async function settleRequest(deps: GatewayDeps, done: Admitted, charge: Charge): Promise<void> {
  try {
    const { budgetUsed } = await settle(deps.pool, done, done.reserved, charge);
    if (!budgetUsed) return;
    await exhaustBudget(deps.db, { id: done.runId, workspaceId: done.workspaceId });
    deps.logger.info({ runId: done.runId }, "run used its token budget");
  } catch (err) {
    deps.logger.error({ err, runId: done.runId }, "settling a model request failed");
  }
}

// One model request, start to end: route (404) → token shape (401) → body (413/400) → admit
// (401/402/429: auth, run state, parallel limit and budget reservation in one round trip) →
// provider key → forward → settle (once the response has gone out) → one log line. Nothing
// reaches the provider before admission has succeeded.
import type { IncomingMessage, ServerResponse } from "node:http";
import { decryptField } from "@secondshift/crypto";
import { AppError, isAppError } from "@secondshift/errors";
import { admit, type Admitted } from "./admission.ts";
import { presentedTokenHash } from "./auth.ts";
import { exhaustBudget } from "@secondshift/run-lifecycle";
import { settle, type Charge } from "./budget.ts";
import { sendError } from "./errors.ts";
import type { GatewayDeps } from "./options.ts";
import { anthropicBetas } from "./headers.ts";
import { modelLabel } from "./metrics.ts";
import { forward, type ForwardResult } from "./proxy.ts";
import { readBody } from "./read-body.ts";
import { inspectRequest, upstreamBody } from "./request-body.ts";
import type { Route } from "./routes.ts";

/**
 * The owner's allowed models for the provider (empty: any). Checked on the body the gateway
 * parsed and forwards, after admission, so the reservation is released like any refusal.
 */
function refuseUnlistedModel(allowed: readonly string[], model: unknown): void {
  if (allowed.length === 0 || (typeof model === "string" && allowed.includes(model))) return;
  const named = typeof model === "string" ? `"${model.slice(0, 100)}"` : "(none)";
  throw new AppError(
    "FORBIDDEN",
    `The model ${named} is not allowed for this workspace's model provider; use one of: ${allowed.join(", ")}, or ask the workspace owner to allow it.`,
    { reason: "MODEL_NOT_ALLOWED" },
  );
}

async function providerKey(deps: GatewayDeps, admitted: Admitted): Promise<string> {
  const provider = admitted.provider!;
  try {
    const key = await decryptField(deps.keyring, provider.apiKeyCiphertext, {
      workspaceId: admitted.workspaceId,
      table: "ModelProvider",
      rowId: provider.id,
      field: "apiKeyCiphertext",
    });
    deps.masker.add(key);
    return key;
  } catch (cause) {
    throw new AppError(
      "BAD_GATEWAY",
      "The workspace's model provider key cannot be decrypted; the workspace owner must enter it again.",
      {
        reason: "PROVIDER_KEY_UNREADABLE",
        cause,
      },
    );
  }
}

function chargeFor(
  admitted: Admitted,
  inputEstimate: number,
  result: ForwardResult | null,
): Charge {
  if (result?.usage) return result.usage;
  // Usage never arrived (stream cut, client gone, timeout): charge the whole reservation.
  if (result?.mayHaveCharged)
    return {
      input: Math.min(inputEstimate, admitted.reserved),
      output: admitted.grantedOutput * admitted.choices,
      cache: 0,
    };
  return { input: 0, output: 0, cache: 0 };
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

function observe(
  deps: GatewayDeps,
  done: Admitted,
  seen: {
    requestJson: Record<string, unknown> | null;
    result: ForwardResult | null;
    charge: Charge;
    latencyMs: number;
  },
): void {
  if (!deps.metrics) return;
  const provider = done.provider?.kind.toLowerCase() ?? "none";
  const model = modelLabel(seen.requestJson, seen.result?.upstreamStatus ?? null);
  const outcome = seen.result?.outcome ?? "refused";
  deps.metrics.requestSeconds.observe({ provider, model, outcome }, seen.latencyMs / 1000);
  for (const kind of ["input", "output", "cache"] as const) {
    if (seen.charge[kind] > 0)
      deps.metrics.tokens.inc({ provider, model, kind }, seen.charge[kind]);
  }
}

export async function handleModelRequest(
  deps: GatewayDeps,
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // The provider key is masked while a request uses it and leaves the masker after the last one
  // (per-request scopes share a live value), so a rotated key does not stay forever (P02).
  const secrets = deps.masker.scope();
  try {
    await handleInScope({ ...deps, masker: secrets }, route, req, res);
  } finally {
    secrets.close();
  }
}

async function handleInScope(
  deps: GatewayDeps,
  route: Route,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const started = performance.now();
  let admitted: Admitted | null = null;
  let result: ForwardResult | null = null;
  let inputEstimate = 0;
  let requestJson: Record<string, unknown> | null = null;
  let status: number;
  try {
    const tokenHash = presentedTokenHash(req.headers);
    const anthropicBeta =
      route.family === "ANTHROPIC"
        ? anthropicBetas(req.headers, deps.forwarding.anthropicBetas)
        : null;
    const raw = await readBody(req, deps.limits.maxBodyBytes);
    const inspected = inspectRequest(
      route,
      raw,
      deps.limits.defaultMaxOutputTokens,
      deps.forwarding.allowedProviderTools,
    );
    inputEstimate = inspected.inputEstimate;
    requestJson = inspected.json;
    admitted = await admit(deps, {
      tokenHash,
      metered: route.metered,
      inputEstimate,
      requestedOutput: inspected.requestedOutput,
      choices: inspected.choices,
      maxParallel: deps.limits.maxParallelPerRun,
    });
    if (!admitted.provider) {
      throw new AppError(
        "PRECONDITION_FAILED",
        "The workspace has no model provider; the workspace owner must add one.",
        { reason: "NO_MODEL_PROVIDER" },
      );
    }
    if (admitted.provider.kind !== route.family) {
      throw new AppError("NOT_FOUND", "This path is not served for the run's model provider.", {
        reason: "PATH_NOT_FOR_PROVIDER",
      });
    }
    refuseUnlistedModel(admitted.provider.allowedModels, inspected.json.model);
    const key = await providerKey(deps, admitted);
    result = await forward(deps, req, res, {
      route,
      family: admitted.provider.kind,
      baseUrl: admitted.provider.baseUrl,
      providerKey: key,
      anthropicBeta,
      body: upstreamBody(route, inspected, admitted.grantedOutput),
      stream: inspected.stream,
    });
    status = result.error?.httpStatus ?? res.statusCode;
  } catch (error) {
    const appError = isAppError(error)
      ? error
      : new AppError(
          "INTERNAL",
          "The gateway failed to handle this request; retry, and report it if it persists.",
          { reason: "GATEWAY_ERROR", cause: error },
        );
    if (!isAppError(error))
      deps.logger.error({ err: error, path: route.path }, "gateway request failed");
    status = appError.httpStatus;
    sendError(res, appError);
  }
  const done = admitted;
  if (!done) {
    deps.metrics?.requestSeconds.observe(
      { provider: "none", model: "other", outcome: "refused" },
      (performance.now() - started) / 1000,
    );
    deps.logger.info(
      { path: route.path, status, latencyMs: +(performance.now() - started).toFixed(3) },
      "model request refused",
    );
    return;
  }
  const charge = chargeFor(done, inputEstimate, result);
  // What the client waited; the settlement below is not part of it.
  const latencyMs = +(performance.now() - started).toFixed(3);
  observe(deps, done, { requestJson, result, charge, latencyMs });
  await settleRequest(deps, done, charge);
  deps.logger.info(
    {
      runId: done.runId,
      workspaceId: done.workspaceId,
      path: route.path,
      status,
      upstreamStatus: result?.upstreamStatus ?? null,
      outcome: result?.outcome ?? "refused",
      usage: result?.usage ?? null,
      reserved: done.reserved,
      charged: charge.input + charge.output + charge.cache,
      latencyMs,
    },
    "model request",
  );
}
